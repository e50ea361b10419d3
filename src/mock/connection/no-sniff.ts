/**
 * On every answer, as Helmet and most frameworks send it: a browser must never read an answer as anything but its
 * Content-Type. A page on another site that loads a mock URL with <script> or <link rel=stylesheet> (an error body
 * quoting the path it was given, a name a test stored) then gets nothing it can run or apply (the Fetch standard's nosniff check).
 */
export const NO_SNIFF = ['X-Content-Type-Options', 'nosniff'] as const;
