/**
 * Helpers shared by the office, HTML and image handlers. Light to import: no format
 * library loads until a function that needs one runs.
 */
export { OFFICE_OPTION_DEFAULTS, officeOptions, type OfficeOptions } from "./options.js";
export { convertWithLibreOffice, findSoffice, resetSofficeCache, INSTALL_HINT, type ConvertOptions } from "./libreoffice.js";
export { OfficeZip, type ZipEntry } from "./zip.js";
export { parseXml, decodeEntities, MAX_XML_DEPTH, type XNode } from "./xml.js";
export { formatNumber, formatDate, isDateFormat, generalNumber } from "./number-format.js";
export { buildTable, tableText, type GridCell } from "./table-grid.js";
export { linkCaptions } from "./captions.js";
