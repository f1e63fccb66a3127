/**
 * A `Retry-After` value as ms from `now`: delta-seconds or the three HTTP-date forms of
 * RFC 9110; the past gives 0, garbage `undefined` (`Date.parse` reads `"1"` as a date).
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();

  if (/^-?\d+$/.test(text)) {
    const seconds = Number(text);
    if (!Number.isSafeInteger(seconds)) return undefined;
    return seconds <= 0 ? 0 : seconds * 1000;
  }

  const date = parseHttpDate(text, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const shortDay = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const longDay = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const month = `(${months.join("|")})`;
const time = "(\\d{2}):(\\d{2}):(\\d{2})";
// Sun, 06 Nov 1994 08:49:37 GMT
const imfFixdate = new RegExp(`^${shortDay}, (\\d{2}) ${month} (\\d{4}) ${time} GMT$`);
// Sunday, 06-Nov-94 08:49:37 GMT
const rfc850 = new RegExp(`^${longDay}, (\\d{2})-${month}-(\\d{2}) ${time} GMT$`);
// Sun Nov  6 08:49:37 1994
const asctime = new RegExp(`^${shortDay} ${month} ([ \\d]\\d) ${time} (\\d{4})$`);

/** An HTTP-date in epoch ms; `now` places RFC 850's two-digit years. */
export function parseHttpDate(text: string, now: number): number | undefined {
  let match = imfFixdate.exec(text);
  if (match) return utc(match[3], match[2], match[1], match[4], match[5], match[6]);
  match = rfc850.exec(text);
  if (match) {
    // RFC 9110 §5.6.7: a two-digit year that looks more than 50 years ahead is
    // the most recent past year with those digits.
    const currentYear = new Date(now).getUTCFullYear();
    let year = currentYear - (currentYear % 100) + Number(match[3]);
    if (year > currentYear + 50) year -= 100;
    return utc(String(year), match[2], match[1], match[4], match[5], match[6]);
  }
  match = asctime.exec(text);
  if (match) return utc(match[6], match[1], match[2], match[3], match[4], match[5]);
  return undefined;
}

function utc(
  year: string | undefined,
  monthName: string | undefined,
  day: string | undefined,
  hours: string | undefined,
  minutes: string | undefined,
  seconds: string | undefined,
): number | undefined {
  const monthIndex = months.indexOf(monthName ?? "");
  const [y, d, h, m, s] = [year, day, hours, minutes, seconds].map((part) => Number(part?.trim()));
  if (y === undefined || d === undefined || h === undefined || m === undefined || s === undefined) {
    return undefined;
  }
  if (monthIndex < 0 || d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return undefined;
  const ms = Date.UTC(y, monthIndex, d, h, m, Math.min(s, 59));
  // Reject dates that roll over (31 Feb) rather than silently moving them.
  return new Date(ms).getUTCDate() === d ? ms : undefined;
}
