package interrupt

import (
	"strings"
	"time"
)

// maxDateMs is the ECMAScript time value range, ±8.64e15 ms.
const maxDateMs = 8_640_000_000_000_000

// ParseDate is the subset of JavaScript's Date.parse that interrupts rely on:
// it returns the time value in ms and whether it is finite.
//
// Accepted: the ECMAScript date-time string format (YYYY, YYYY-MM,
// YYYY-MM-DD, ±YYYYYY expanded years, optional THH:mm[:ss[.fraction]] and
// Z or ±HH:mm; date-only forms are UTC, date-time forms without an offset
// are local time, as in JavaScript; days 1–31 roll over like V8), the same
// with a space instead of "T", and the RFC 1123 / Date.prototype.toString
// forms. Other strings that V8's legacy parser happens to accept are
// treated as unparseable (a documented divergence; producers write ISO).
func ParseDate(s string) (int64, bool) {
	if ms, ok := parseISODate(s); ok {
		return ms, true
	}
	return parseLegacyDate(s)
}

type dateScanner struct {
	s   string
	pos int
}

func (d *dateScanner) digits(n int) (int, bool) {
	if d.pos+n > len(d.s) {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		c := d.s[d.pos+i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	d.pos += n
	return v, true
}

func (d *dateScanner) next(c byte) bool {
	if d.pos < len(d.s) && d.s[d.pos] == c {
		d.pos++
		return true
	}
	return false
}

func parseISODate(s string) (int64, bool) {
	d := dateScanner{s: s}
	var year int
	var ok bool
	switch {
	case d.next('+'):
		year, ok = d.digits(6)
	case d.next('-'):
		year, ok = d.digits(6)
		if ok && year == 0 {
			return 0, false // -000000 is not allowed
		}
		year = -year
	default:
		year, ok = d.digits(4)
	}
	if !ok {
		return 0, false
	}
	month, day := 1, 1
	if d.next('-') {
		if month, ok = d.digits(2); !ok || month < 1 || month > 12 {
			return 0, false
		}
		if d.next('-') {
			if day, ok = d.digits(2); !ok || day < 1 || day > 31 {
				return 0, false
			}
		}
	}
	hour, minute, sec, nsec := 0, 0, 0, 0
	loc := time.UTC
	if d.pos < len(s) {
		if !d.next('T') && !d.next(' ') {
			return 0, false
		}
		if hour, ok = d.digits(2); !ok || !d.next(':') {
			return 0, false
		}
		if minute, ok = d.digits(2); !ok || minute > 59 {
			return 0, false
		}
		if d.next(':') {
			if sec, ok = d.digits(2); !ok || sec > 59 {
				return 0, false
			}
			if d.next('.') {
				start := d.pos
				scale := 100_000_000
				for d.pos < len(s) && s[d.pos] >= '0' && s[d.pos] <= '9' {
					nsec += int(s[d.pos]-'0') * scale
					scale /= 10
					d.pos++
				}
				if d.pos == start {
					return 0, false
				}
				nsec -= nsec % 1_000_000 // time values are whole milliseconds
			}
		}
		if hour > 24 || (hour == 24 && (minute != 0 || sec != 0 || nsec != 0)) {
			return 0, false
		}
		loc = time.Local
		switch {
		case d.next('Z'):
			loc = time.UTC
		case d.pos < len(s) && (s[d.pos] == '+' || s[d.pos] == '-'):
			sign := 1
			if s[d.pos] == '-' {
				sign = -1
			}
			d.pos++
			oh, ok1 := d.digits(2)
			colon := d.next(':')
			om, ok2 := d.digits(2)
			if !ok1 || !colon || !ok2 || oh > 23 || om > 59 {
				return 0, false
			}
			loc = time.FixedZone("", sign*(oh*3600+om*60))
		}
	}
	if d.pos != len(s) {
		return 0, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc)
	return clampDate(t)
}

func clampDate(t time.Time) (int64, bool) {
	// UnixMilli overflows far beyond the ECMAScript range; check in seconds.
	secs := t.Unix()
	if secs > maxDateMs/1000 || secs < -maxDateMs/1000 {
		return 0, false
	}
	ms := t.UnixMilli()
	if ms > maxDateMs || ms < -maxDateMs {
		return 0, false
	}
	return ms, true
}

var legacyLayouts = []string{
	time.RFC1123,
	time.RFC1123Z,
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon Jan 02 2006 15:04:05 GMT-0700",
	"Mon Jan 02 2006 15:04:05 MST",
}

func parseLegacyDate(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i] // "… GMT+0100 (Central European Standard Time)"
	}
	for _, layout := range legacyLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return clampDate(t)
		}
	}
	return 0, false
}
