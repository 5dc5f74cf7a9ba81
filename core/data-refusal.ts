/**
 * Whether an HTTP status from a time-series database or an observability platform means it
 * refused the data itself, so that sending the same data again cannot help: a 4xx other than
 * 401/403/404/408/429, which are set-up or load problems (413 included: the same body would be
 * refused again; the time-series writers make smaller bodies of its points, see isTooLarge).
 * No status (no answer) and anything else are outages that retrying can cure.
 */
export function isDataRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && !NOT_ABOUT_THE_DATA.includes(status);
}

const NOT_ABOUT_THE_DATA: readonly number[] = [401, 403, 404, 408, 429];

/**
 * 413: the request body was larger than the server reads (InfluxDB 1.x `[http] max-body-size`,
 * 25 MB by default). It says nothing against the data and nothing of the request was stored, so
 * a time-series writer writes the same points again in smaller requests, down to one point; only
 * a single point still too large is refused (`too_large`).
 */
export function isTooLarge(status: number | undefined): boolean {
  return status === 413;
}
