// A tiny OpenAPI document for the unit tests of the contract chain's steps.
import { SpecSchemas } from '../../../lib/openapi-schemas.ts';

export const SPEC = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/users/{userId}': {
      parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      post: {
        operationId: 'touchUser',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 50, default: 20 } },
          { name: 'dry', in: 'query', schema: { type: 'boolean' } },
          { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
              },
            },
          },
          '404': {
            description: 'not found',
            'x-error-codes': ['NOT_FOUND'],
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '204': { description: 'nothing' },
        },
      },
    },
  },
};

export const schemas = () => new SpecSchemas(structuredClone(SPEC));
