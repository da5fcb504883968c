package pgformat

// Julian-day arithmetic in the exact integer form PostgreSQL uses, so that
// out-of-range field combinations (interval "dates", Feb 30 without a year)
// normalise the same way they do on the server.

const (
	postgresEpochJDate = 2451545 // date2j(2000, 1, 1)
	usecsPerDay        = int64(86400000000)
	usecsPerSec        = int64(1000000)
	unixEpochJDate     = 2440588 // date2j(1970, 1, 1)
	minTimestamp       = int64(-211813488000000000)
	endTimestamp       = int64(9223371331200000000)
	julianMinYear      = -4713
	julianMinMonth     = 11
	julianMaxYear      = 5874898
	julianMaxMonth     = 6
)

// date2j returns the Julian day number of a proleptic Gregorian date whose
// year uses astronomical numbering (0 is 1 BC).
func date2j(y, m, d int) int {
	if m > 2 {
		m++
		y += 4800
	} else {
		m += 13
		y += 4799
	}
	century := y / 100
	julian := y*365 - 32167
	julian += y/4 - century + century/4
	julian += 7834*m/256 + d
	return julian
}

// j2date is the inverse of date2j.
func j2date(jd int) (year, month, day int) {
	julian := uint32(jd)
	julian += 32044
	quad := julian / 146097
	extra := (julian-quad*146097)*4 + 3
	julian += 60 + quad*3 + extra/146097
	quad = julian / 1461
	julian -= quad * 1461
	y := int(julian * 4 / 1461)
	if y != 0 {
		julian = (julian+305)%365 + 123
	} else {
		julian = (julian+306)%366 + 123
	}
	y += int(quad * 4)
	year = y - 4800
	quad = julian * 2141 / 65536
	day = int(julian - 7834*quad/256)
	month = int((quad+10)%12 + 1)
	return year, month, day
}

// j2day returns the weekday of a Julian day, 0 = Sunday.
func j2day(jd int) int {
	jd++
	jd %= 7
	if jd < 0 {
		jd += 7
	}
	return jd
}

func isLeap(y int) bool {
	return y%4 == 0 && (y%100 != 0 || y%400 == 0)
}

var daysInMonth = [2][12]int{
	{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
	{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
}

func leapIndex(y int) int {
	if isLeap(y) {
		return 1
	}
	return 0
}

// isoWeek1Start returns the Julian day of the Monday starting ISO week 1 of
// the given ISO year.
func isoWeek1Start(year int) int {
	day4 := date2j(year, 1, 4)
	day0 := j2day(day4 - 1)
	return day4 - day0
}

// isoweek2j returns the Julian day of the Monday of ISO week `week`.
func isoweek2j(year, week int) int {
	return (week-1)*7 + isoWeek1Start(year)
}

// date2isoweek returns the ISO 8601 week number of a date.
func date2isoweek(year, mon, mday int) int {
	dayn := date2j(year, mon, mday)
	start := isoWeek1Start(year)
	if dayn < start {
		start = isoWeek1Start(year - 1)
	}
	result := (dayn-start)/7 + 1
	if result >= 52 {
		next := isoWeek1Start(year + 1)
		if dayn >= next {
			result = (dayn-next)/7 + 1
		}
	}
	return result
}

// date2isoyear returns the ISO 8601 week-numbering year of a date.
func date2isoyear(year, mon, mday int) int {
	dayn := date2j(year, mon, mday)
	start := isoWeek1Start(year)
	if dayn < start {
		start = isoWeek1Start(year - 1)
		year--
	}
	result := (dayn-start)/7 + 1
	if result >= 52 {
		if dayn >= isoWeek1Start(year+1) {
			year++
		}
	}
	return year
}

// date2isoyearday returns the day of the ISO week-numbering year (1..371).
func date2isoyearday(year, mon, mday int) int {
	return date2j(year, mon, mday) - isoweek2j(date2isoyear(year, mon, mday), 1) + 1
}

// isValidJulian reports whether a date lies in the range the Julian-day
// routines handle without overflow.
func isValidJulian(y, m int) bool {
	return (y > julianMinYear || (y == julianMinYear && m >= julianMinMonth)) &&
		(y < julianMaxYear || (y == julianMaxYear && m < julianMaxMonth))
}
