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
import type { Socket } from 'node:net';
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
  const server = createServer(
    {
      ...options,
      IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
    },
    app,
  );
  // With a listener here, Node leaves the close of a timed-out connection to it.
  server.on('timeout', closeUnlessUsed);
  return server;
}

/**
 * Closes a kept-alive connection whose idle time has run out, unless a request reached it meanwhile.
 *
 * Why: the idle timer can fire late. When the event loop was busy past the connection's idle time
 * (a large fixture loading, or a test's own synchronous work in the process that runs `startMock`),
 * the client's next request may already wait in the socket's buffer when the timer fires, and Node
 * would close the socket there and then: the client reads ECONNRESET for a request the server never
 * saw. One turn of the event loop later, after its poll phase has read what was waiting, a
 * connection that received anything is kept, and its request is answered; Node's request timeouts
 * bound it from there. A connection on which nothing arrived is closed.
 */
function closeUnlessUsed(socket: Socket): void {
  const read = socket.bytesRead;
  setImmediate(() => {
    if (socket.bytesRead === read) socket.destroy();
  });
}
