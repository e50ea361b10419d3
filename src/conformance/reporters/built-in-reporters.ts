import { consoleReporter } from './console-reporter.js';
import { htmlReporter } from './html-reporter.js';
import { jsonReporter } from './json-reporter.js';
import { junitReporter } from './junit-reporter.js';
import { markdownReporter } from './markdown-reporter.js';
import type { Reporter } from './reporter.js';

/** --reporter names → reporters. A new format is a new row. */
export const BUILT_IN_REPORTERS: Readonly<Record<string, Reporter>> = {
  console: consoleReporter,
  json: jsonReporter,
  junit: junitReporter,
  markdown: markdownReporter,
  html: htmlReporter,
};
