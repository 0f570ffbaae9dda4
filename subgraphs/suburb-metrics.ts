/**
 * The registry of the suburb analytics rollup: every layer's `SuburbMetricsProvider`
 * (core/suburb-metrics.ts), in the order their sections appear in a bundle. Like index.ts
 * beside it, this file is the composition root's and no subgraph's: it is the one place that
 * imports the providers, and only the rollup's callers (cli/, app/, the sandbox load) import it;
 * test/architecture.test.ts holds both rules.
 */
import type { SuburbMetricsProvider } from '../core/suburb-metrics.ts';
import { amenitiesSuburbMetrics } from './amenities/suburb-metrics.ts';
import { demographicsSuburbMetrics } from './demographics/suburb-metrics.ts';
import { developmentSuburbMetrics } from './development/suburb-metrics.ts';
import { hazardsSuburbMetrics } from './hazards/suburb-metrics.ts';
import { marketSuburbMetrics } from './market/suburb-metrics.ts';
import { supplySuburbMetrics } from './supply/suburb-metrics.ts';

export const SUBURB_METRICS_PROVIDERS: readonly SuburbMetricsProvider[] = [
  marketSuburbMetrics,
  demographicsSuburbMetrics,
  amenitiesSuburbMetrics,
  hazardsSuburbMetrics,
  developmentSuburbMetrics,
  supplySuburbMetrics,
];
