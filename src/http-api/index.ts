/**
 * Public surface of the local web view (`reponav ui`): the server, its API
 * shapes and the validators of the documents it opens.
 */
export { DEFAULT_WEB_INDEX_WAIT_MS, DEFAULT_WEB_PORT, startWebServer, type RunningWebServer, type WebServerOptions } from './web-server.js';
export type * from './api-types.js';
export { API_PATHS } from './api-router.js';
export { parseAskTrace } from './trace-shape.js';
export { parseReport } from './report-shape.js';
export { defaultAssetsDir, hasBuiltAssets } from './static-assets.js';
export { checkWebRequest } from './request-guard.js';
export { handleApiRequest, type ApiContext } from './api-router.js';
export { createWebToolRegistry } from './web-tools.js';
export { serveStatic } from './static-assets.js';
export { ApiError, readBodyText, SECURITY_HEADERS, sendApiError, sendJson } from './http-io.js';
