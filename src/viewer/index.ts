export { startViewer, QUOTE_HIGHLIGHT_RGBA, VIEWER_DEFAULTS } from "./start-viewer.js";
export type { Viewer, ViewerOptions, ViewerResult } from "./start-viewer.js";
export { pageImageUrlOf, ImageCache } from "./page-images.js";
export type { PageImage, PageImageResolver, PageImageSource } from "./page-images.js";
