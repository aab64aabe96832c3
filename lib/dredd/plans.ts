// How each API runs under Dredd against a fresh demo tenant (lib/dredd-export.ts): the order, the
// demo records in place of examples the demo lacks, the values only an earlier answer gives, the one
// upload, and what cannot run, each with the reason the export carries.
export const DREDD_APIS = ['v1', 'v2', 'admin'] as const;
export type DreddApi = (typeof DREDD_APIS)[number];

/** What the kit's mock sends with every JSON answer; Dredd expects the documented media type verbatim. */
export const MOCK_JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A value taken from an earlier operation's answer (tools/dredd/hooks.js). */
export interface AnswerPointer {
  operationId: string;
  /** JSON Pointer into that answer's body. */
  pointer: string;
}

/**
 * What only an earlier answer of the same run can give (an id the platform makes): path parameters
 * by name, and top-level properties of the JSON request body.
 */
export interface FromAnswer {
  path?: Record<string, AnswerPointer>;
  body?: Record<string, AnswerPointer>;
}

/** One file of a multipart/form-data request, which the hooks build (Dredd 14 makes none itself). */
export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  /** The file's bytes. */
  base64: string;
  why: string;
}

/** An example the export puts in place of the contract's, and why. */
export interface DemoValue {
  example: unknown;
  why: string;
}

/**
 * How an API runs under Dredd against a fresh demo tenant, one transaction per operation in document
 * order. Each entry says why; the export carries the reasons (`x-dredd-skipped`, `x-dredd-demo`).
 */
export interface DreddPlan {
  /** Operations that cannot run as one request on the demo, by operationId, and why: hooks skip them. */
  skipped: Record<string, string>;
  /** Operations that must run before the rest, in this order (their paths are moved to the front). */
  first: string[];
  /**
   * Operations that must run after the rest, in this order. A path item holds several operations, so
   * moving paths cannot do it: the export marks each (`x-dredd-last`) and the hooks move them.
   */
  last: string[];
  /** Parameter components whose example names a record the demo lacks: the demo record instead. */
  parameters: Record<string, DemoValue>;
  /** Operations sent without their optional query parameters, by operationId, and why. */
  withoutOptionalQuery: Record<string, string>;
  /** The same for one operation's parameter (by operationId, then parameter name). */
  operationParameters: Record<string, Record<string, DemoValue>>;
  /** Request bodies for operations whose contract gives no request example that succeeds on the demo. */
  bodies: Record<string, DemoValue>;
  /** Values that only an earlier answer can give, by operationId. */
  fromAnswer: Record<string, FromAnswer>;
  /** Multipart uploads, by operationId. */
  multipart: Record<string, MultipartFile>;
}

export const DREDD_PLANS: Record<DreddApi, DreddPlan> = {
  v1: {
    skipped: {},
    first: [],
    last: [],
    parameters: {},
    withoutOptionalQuery: {},
    operationParameters: {},
    bodies: {},
    fromAnswer: {},
    multipart: {},
  },
  v2: {
    skipped: {},
    first: [],
    last: [],
    parameters: {},
    withoutOptionalQuery: {},
    operationParameters: {},
    bodies: {},
    fromAnswer: {
      processSourceMaterial: {
        body: {
          sessionId: { operationId: 'uploadSourceMaterial', pointer: '/sessionId' },
          fileId: { operationId: 'uploadSourceMaterial', pointer: '/fileId' },
        },
      },
      getGenerationJob: { path: { jobId: { operationId: 'generateCourse', pointer: '/jobId' } } },
    },
    multipart: {
      uploadSourceMaterial: {
        field: 'file',
        filename: 'policy.png',
        contentType: 'image/png',
        // A PNG's signature and the start of its first chunk: typed PNG by its content, no text to read.
        base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64'),
        why: 'Dredd 14 makes no multipart/form-data body from an OpenAPI 3 description (it would send none): the hooks send this file',
      },
    },
  },
  admin: {
    skipped: {},
    // A fresh demo first; then a webhook receiver, so that publishing a course makes a delivery to read
    // and redeliver; faults cleared before one is made, so that deleting it finds it.
    first: ['resetState', 'createWebhookReceiver', 'clearFaults', 'createFault'],
    // Last, what takes away what the others read: clearing the journal empties it, and loading a
    // fixture replaces the demo tenant every other operation addresses.
    last: ['clearRequestJournal', 'loadFixtures'],
    parameters: {},
    withoutOptionalQuery: {
      getRequestJournal:
        'each filter’s example names a different request (a POST answered 201, an answer from 400 to 499, a call of the tool ban_user): together they match none, and getJournalEntry reads the id of the newest request from this answer',
    },
    operationParameters: {
      publishCourse: {
        courseId: {
          example: 46,
          why: 'the contract’s example, course 7, is published already, and publishing it again sends no event; 46 is a draft of the demo, whose publication makes the webhook delivery read below',
        },
      },
    },
    bodies: {},
    fromAnswer: {
      getJournalEntry: {
        path: { requestId: { operationId: 'getRequestJournal', pointer: '/requests/0/id' } },
      },
      getMcpKey: { path: { keyId: { operationId: 'createMcpKey', pointer: '/id' } } },
      revokeMcpKey: { path: { keyId: { operationId: 'createMcpKey', pointer: '/id' } } },
      getWebhookDelivery: {
        path: { deliveryId: { operationId: 'listWebhookDeliveries', pointer: '/deliveries/0/id' } },
      },
      redeliverWebhookDelivery: {
        path: { deliveryId: { operationId: 'listWebhookDeliveries', pointer: '/deliveries/0/id' } },
      },
      deleteWebhookReceiver: {
        path: { receiverId: { operationId: 'createWebhookReceiver', pointer: '/id' } },
      },
      deleteFault: { path: { faultId: { operationId: 'createFault', pointer: '/id' } } },
    },
    multipart: {},
  },
};
