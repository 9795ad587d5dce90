/**
 * How the panel refuses, seen on two harmless requests made only after a read worked: a made-up
 * key (it must get a 401, design §5) and an unknown filter (whether refusals carry Laravel-style
 * `errors`, which the extension shows field by field).
 */
import { HTTP_DEFAULTS } from '../../../utils/api/http';
import type { Outcome } from './attempt';
import { bodyShape } from './body';
import type { Finding } from './report-types';
import { seconds, type Exchange } from './wire';

/**
 * A made-up key must get a 401: only that makes the extension ask the panelist to reconnect
 * (design §5). It is tried on a read the real key just read, so whatever else it gets is the
 * panel's answer to a wrong key, not an outage told twice.
 */
export function badTokenFinding(outcome: Outcome<unknown>, exchange: Exchange | undefined): Finding {
  const topic = 'Error body: a wrong key';
  const change = 'Answer a request whose key is unknown, expired or revoked with 401.';
  const where = exchange ? `GET ${exchange.url} with a made-up key` : 'A made-up key';
  if (outcome.ok) {
    return {
      level: 'fail',
      topic,
      text: `${where} answered ${exchange?.status ?? 200} with data: is the API open to anyone? A panelist with a wrong key is never told.`,
      panelists: "someone else's data, or none, and never that their key is wrong",
      change: "Check the key on every request and answer 401 when it is not a panelist's.",
    };
  }
  const { error } = outcome;
  if (error.kind === 'unauthorized')
    return {
      level: 'ok',
      topic,
      text: `401, ${bodyShape(exchange)}: the extension asks the panelist to reconnect (design §5).`,
    };
  const got = exchange?.failure
    ? exchange.failure.kind === 'timeout'
      ? `no answer within ${seconds(HTTP_DEFAULTS.timeoutMs)}`
      : 'no connection'
    : exchange?.redirectedTo
      ? `${exchange.status} to ${exchange.redirectedTo}`
      : `${exchange?.status ?? error.kind}, ${bodyShape(exchange)}`;
  const keeps =
    error.kind === 'not_allowed'
      ? 'The extension reads a 403 as "not allowed" and keeps the session'
      : 'The extension reads this as a failure of the panel, not of the key';
  return {
    level: 'fail',
    topic,
    text: `${where} got ${got}, where the real key was answered: a rejected key must be a 401. ${keeps}, so a panelist whose key was revoked is never asked to reconnect (design §5).`,
    panelists: error.message,
    change,
  };
}

/** A read with an unknown filter: whether the panel's refusals carry Laravel-style `errors`. */
export function refusalFinding(outcome: Outcome<unknown>, exchange: Exchange | undefined): Finding {
  const topic = 'Error body: a refused read (an unknown filter)';
  if (outcome.ok)
    return {
      level: 'info',
      topic,
      text: 'The panel ignores an unknown filter (200), so there was no refusal to look at.',
    };
  const { error } = outcome;
  const status = exchange?.status ?? error.status;
  if (error.kind === 'server') {
    return {
      level: 'warn',
      topic,
      text: `An unknown filter made the panel fail with ${status} instead of refusing it (4xx); the extension only ever sends filter=writable.`,
      panelists: 'nothing now; a refused request they do cause may look like an outage to them',
      change: 'Refuse a request the panel does not accept with a 4xx and a `message`, not a 5xx.',
    };
  }
  if (status === 404)
    return {
      level: 'info',
      topic,
      text: `404, ${bodyShape(exchange)}: "not found", as for an unknown path, so it says nothing of how a refused profile save looks.`,
    };
  if (error.kind !== 'rejected' && error.kind !== 'not_allowed')
    return { level: 'info', topic, text: `${status ?? error.kind}: ${error.message}` };
  const laravel = error.fields
    ? `Laravel-style \`errors\` (${Object.keys(error.fields).join(', ')}): a refused profile save shows each field's own text next to that field (design §5)`
    : "no Laravel-style `errors`: a refused profile save shows the panel's one message for the whole section (design §5)";
  return { level: 'ok', topic, text: `${status}, ${bodyShape(exchange)}, message "${error.message}"; ${laravel}.` };
}
