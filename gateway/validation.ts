import type { ValidationContext, ASTVisitor } from 'graphql';
import { GraphQLError, OperationTypeNode } from 'graphql';

/**
 * The graph answers queries only; graphql-js 16 lets a mutation or subscription through
 * validation and fails it at execution, which Apollo answers as a 500.
 */
export function QueriesOnly(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (node.operation === OperationTypeNode.QUERY) return;
      context.reportError(
        new GraphQLError(`The graph answers queries only; it has no ${node.operation} operations.`, { nodes: node }),
      );
    },
  };
}

/** A Float literal beyond the double range (1e309) parses as Infinity, which no argument means. */
export function FiniteFloats(context: ValidationContext): ASTVisitor {
  return {
    FloatValue(node) {
      if (Number.isFinite(Number(node.value))) return;
      context.reportError(
        new GraphQLError(`Float ${node.value} is out of range: a Float must be a finite double.`, { nodes: node }),
      );
    },
  };
}

export const GRAPH_VALIDATION_RULES = [QueriesOnly, FiniteFloats];
