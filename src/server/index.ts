/** The local parse service: the wire contract over node:http, in front of a Parser. */
export { startServer, type RunningServer } from "./server.js";
export { runServe, type ServeOptions, type ServeHandle } from "./serve.js";
export { SERVER_DEFAULTS, resolveServerOptions, type ServerOptions, type ResolvedServerOptions, type ServerLogger } from "./options.js";
export { FaultInjector, type FaultOptions, type FaultAction, type FaultRequest, type FaultRoute } from "./faults.js";
export { checkCredentials } from "./auth.js";
export type { AssetSource } from "./route-assets.js";
