// An HTTP server for an Express app whose requests and answers are built with the app's own
// prototypes, instead of being built as plain Node objects and then given Express's prototypes.
//
// Why: Express's `app.handle` calls `Object.setPrototypeOf` on every request and every answer. On
// Node 20 that kept each request's objects alive until the next full collection instead of letting
// them die young, and a bare Express route spent about two thirds of its CPU on it (measured in
// bench/RESULTS.md, "Express's prototype switch"). Built with the right prototype from the start,
// Express's call finds nothing to change.
// Node documents the two options for this use (`http.createServer`: "useful for extending the
// original IncomingMessage / ServerResponse").
import { createServer, IncomingMessage, type Server, type ServerOptions, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * The server `app.listen` would make, with requests and answers born with the app's prototypes;
 * `options` are Node's other server options (timeouts, say).
 */
export function expressServer(
  app: Express,
  options: Omit<ServerOptions, 'IncomingMessage' | 'ServerResponse'> = {},
): Server {
  // Plain constructor functions: a class's `prototype` cannot be replaced, and the object `new`
  // makes must already have the app's prototype when Node's constructor runs on it.
  function ExpressRequest(this: IncomingMessage, socket: ConstructorParameters<typeof IncomingMessage>[0]) {
    IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: object) {
    (ServerResponse as unknown as (req: IncomingMessage, options?: object) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return createServer(
    {
      ...options,
      IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
