import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLFormattedError,
  GraphQLObjectType,
  GraphQLSchema,
  SelectionSetNode,
} from 'graphql';
import { getNamedType, getOperationAST, isObjectType, Kind, OperationTypeNode } from 'graphql';
import type { RequestScope } from '../core/context.ts';
import { hasScope } from '../core/context.ts';
import { FIELD_SCOPES, PLANNER_FIELDS } from '../core/scopes.ts';
import { missingScope } from '../core/subgraph.ts';

type Path = ReadonlyArray<string | number>;
type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/** The planner's fields this scope may not read, with the grants that would open each. */
function withheldFor(scope: RequestScope): Map<string, readonly string[]> {
  const withheld = new Map<string, readonly string[]>();
  for (const coordinate of PLANNER_FIELDS) {
    const grants = FIELD_SCOPES[coordinate] ?? [];
    if (!grants.some((grant) => hasScope(scope, grant))) withheld.set(coordinate, grants);
  }
  return withheld;
}

/** The fields of a selection set that apply to objects of `type`, fragments flattened. */
function fieldsOf(selectionSet: SelectionSetNode, type: GraphQLObjectType, fragments: Fragments): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push(selection);
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
    if (!fragment) continue;
    // the graph has no interfaces or unions on these paths: a condition applies only to its own type
    if (fragment.typeCondition && fragment.typeCondition.name.value !== type.name) continue;
    fields.push(...fieldsOf(fragment.selectionSet, type, fragments));
  }
  return fields;
}

/**
 * Whether the operation's selection reaches any withheld field at all, decided from the document
 * alone and kept per document (the facade's operations and Apollo's parsed documents are reused):
 * most operations select none, and walking their whole answer for nothing cost a tenth of the
 * facade's CPU on a 200-row DA feed page (docs/benchmarks.md).
 */
const selectionReaches = new WeakMap<DocumentNode, Map<string, boolean>>();

function selectsWithheld(
  root: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  fragments: Fragments,
  withheld: ReadonlyMap<string, readonly string[]>,
): boolean {
  const walk = (type: GraphQLObjectType, set: SelectionSetNode): boolean =>
    fieldsOf(set, type, fragments).some((field) => {
      if (withheld.has(`${type.name}.${field.name.value}`)) return true;
      const fieldType = type.getFields()[field.name.value]?.type;
      const named = fieldType ? getNamedType(fieldType) : undefined;
      return field.selectionSet !== undefined && named !== undefined && isObjectType(named)
        ? walk(named, field.selectionSet)
        : false;
    });
  return walk(root, selectionSet);
}

/**
 * The query planner must read a property's identity (its keys and the point other layers
 * @require) whatever the caller may see, so subgraphs cannot refuse those fields; the gateway
 * withholds them from the composed answer instead. Each withheld field is nulled where the
 * caller asked for it, with the same FORBIDDEN error a subgraph gives, so it fails alone.
 * Mutates `data`; returns the errors to add.
 */
export function withholdPlannerFields(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  data: Record<string, unknown> | null | undefined,
  scope: RequestScope,
): GraphQLFormattedError[] {
  const withheld = withheldFor(scope);
  if (withheld.size === 0 || !data) return [];
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = schema.getQueryType();
  if (!operation || operation.operation !== OperationTypeNode.QUERY || !root) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const reachKey = `${operationName ?? ''}\n${[...withheld.keys()].join(',')}`;
  let reaches = selectionReaches.get(document);
  if (!reaches) selectionReaches.set(document, (reaches = new Map<string, boolean>()));
  let selects = reaches.get(reachKey);
  if (selects === undefined) {
    selects = selectsWithheld(root, operation.selectionSet, fragments, withheld);
    reaches.set(reachKey, selects);
  }
  if (!selects) return [];
  const errors: GraphQLFormattedError[] = [];
  const reported = new Set<string>();

  const visit = (value: unknown, type: GraphQLObjectType, selectionSet: SelectionSetNode, path: Path): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, type, selectionSet, [...path, index]));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    for (const field of fieldsOf(selectionSet, type, fragments)) {
      const key = field.alias?.value ?? field.name.value;
      if (!(key in object)) continue;
      const grants = withheld.get(`${type.name}.${field.name.value}`);
      if (grants) {
        object[key] = null;
        const at = [...path, key];
        if (reported.has(at.join('.'))) continue;
        reported.add(at.join('.'));
        const error = missingScope(grants[0]!);
        errors.push({ message: error.message, path: at, extensions: error.extensions });
        continue;
      }
      const fieldType = type.getFields()[field.name.value]?.type;
      const named = fieldType ? getNamedType(fieldType) : undefined;
      if (field.selectionSet && named && isObjectType(named))
        visit(object[key], named, field.selectionSet, [...path, key]);
    }
  };
  visit(data, root, operation.selectionSet, []);
  return errors;
}
