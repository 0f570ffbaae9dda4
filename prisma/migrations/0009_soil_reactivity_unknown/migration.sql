-- A soil layer's shrink-swell class is unknown where its source publishes none: the Soil and
-- Landscape Grid (clay, depth of soil) has no such attribute, and a class written in its place
-- would be a claim the source never made. NULL says "not mapped"; the site class then rests on
-- the clay and depth figures alone.
ALTER TABLE soil.polygon ALTER COLUMN reactivity DROP NOT NULL;
