/**
 * What a field of a contract's error body carries of the mock's error, read from its name: the HTTP status, the
 * error's code, its message, or a title (the reason phrase beside a message field, else the message itself).
 */
export type ErrorRole = 'status' | 'code' | 'message' | 'title';

// Names as APIs spell them (RFC 9457 Problem Details, Google's and Microsoft's error objects, most frameworks'
// defaults), compared lower-case without separators: status_code, statusCode and Status-Code are one name.
const ROLES: Readonly<Record<string, ErrorRole>> = {
  status: 'status',
  statuscode: 'status',
  httpstatus: 'status',
  httpstatuscode: 'status',
  httpcode: 'status',
  code: 'code',
  errorcode: 'code',
  error: 'code',
  type: 'code',
  errortype: 'code',
  kind: 'code',
  message: 'message',
  errormessage: 'message',
  msg: 'message',
  detail: 'message',
  details: 'message',
  description: 'message',
  errordescription: 'message',
  title: 'title',
};

export function roleOf(name: string): ErrorRole | undefined {
  return ROLES[name.toLowerCase().replace(/[^a-z0-9]/g, '')];
}
