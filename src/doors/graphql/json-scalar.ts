import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';

/**
 * Any JSON value, for the shapes GraphQL cannot type: unions, free-form records, unknown values.
 * It passes values through as they are; the operation's zod schema is what checks them.
 */
export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  description:
    'Any JSON value (object, array, string, number, boolean or null), used where GraphQL cannot type the shape: ' +
    'unions, free-form records and values of any type. The operation still validates it.',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc8259',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
