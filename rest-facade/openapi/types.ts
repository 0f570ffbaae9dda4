/**
 * The subset of OpenAPI 3.1 that the generator emits, typed precisely enough that a misspelt
 * field or a wrong kind of value is a compile error rather than a document a validator rejects.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type JsonSchemaType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** An OpenAPI 3.1 Schema Object: JSON Schema 2020-12, where `$ref` may stand beside other keywords. */
export type SchemaObject = {
  $ref?: string;
  title?: string;
  description?: string;
  type?: JsonSchemaType | JsonSchemaType[];
  format?: string;
  pattern?: string;
  enum?: JsonValue[];
  const?: JsonValue;
  default?: JsonValue;
  examples?: JsonValue[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  items?: SchemaObject;
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
};

export type ReferenceObject = { $ref: string; summary?: string; description?: string };

export type ExampleObject = { summary?: string; description?: string; value: JsonValue };

export type MediaTypeObject = {
  schema: SchemaObject;
  example?: JsonValue;
  examples?: Record<string, ExampleObject>;
};

export type HeaderObject = { description: string; required?: boolean; schema: SchemaObject };

export type ResponseObject = {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
};

export type ParameterObject = {
  name: string;
  in: 'query' | 'path';
  description: string;
  required: boolean;
  schema: SchemaObject;
  style?: 'form' | 'simple';
  explode?: boolean;
};

export type SecurityRequirementObject = Record<string, string[]>;

export type OperationObject = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: ParameterObject[];
  requestBody?: { required: boolean; content: Record<string, { schema: SchemaObject }> };
  security: SecurityRequirementObject[];
  responses: Record<string, ResponseObject | ReferenceObject>;
  deprecated?: boolean;
  /** The key scope the route needs (spec 5.6); absent on the open routes. */
  'x-required-scope'?: string;
};

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

export type TagObject = { name: string; description?: string };

export type ServerObject = { url: string; description?: string };

export type InfoObject = {
  title: string;
  version: string;
  summary?: string;
  description?: string;
};

export type SecuritySchemeObject = {
  type: 'http';
  scheme: 'bearer';
  bearerFormat?: string;
  description?: string;
};

export type ComponentsObject = {
  schemas: Record<string, SchemaObject>;
  responses: Record<string, ResponseObject>;
  headers: Record<string, HeaderObject>;
  securitySchemes: Record<string, SecuritySchemeObject>;
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: InfoObject;
  jsonSchemaDialect: string;
  servers: ServerObject[];
  tags: TagObject[];
  paths: Record<string, PathItemObject>;
  components: ComponentsObject;
};

export const schemaRef = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): ReferenceObject => ({ $ref: `#/components/responses/${name}` });
export const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
