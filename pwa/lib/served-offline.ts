/**
 * The header the service worker puts on an answer it took from its cache because the network did
 * not answer. Browsers often keep `navigator.onLine` true on a dead or captive Wi-Fi ("lie-fi"), so
 * the last API answer's source is the better sign that the page is showing saved data. Its own
 * module, so the service worker imports a string and not React.
 */
export const SERVED_OFFLINE_HEADER = "x-sdt-served-offline";
