package ranger

import (
	"bufio"
	"bytes"
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"
)

// geolocationClass is Ranger's file-based geolocation enricher: it looks
// the client's address up in a file of IPv4 ranges and puts the range's
// location (country code, city, ...) in the request's context, where
// conditions read it as LOCATION_<prefix><FIELD>.
const geolocationClass = "RangerFileBasedGeolocationProvider"

// geolocationEnricher is one compiled geolocation enricher.
type geolocationEnricher struct {
	// prefix is "LOCATION_" followed by the geolocation.meta.prefix option.
	prefix string
	fields []string
	ranges []geoRange // sorted by from
}

type geoRange struct {
	from, to uint32
	values   []string
}

// compileEnrichers reads the service definition's geolocation enrichers
// from files. Other enrichers (tags, user attributes) are not compiled:
// what they provide comes with the request or the tag store.
func compileEnrichers(def *ServiceDef, files map[string][]byte) ([]geolocationEnricher, error) {
	var out []geolocationEnricher
	for _, ce := range def.ContextEnrichers {
		class := ce.Enricher[strings.LastIndexByte(ce.Enricher, '.')+1:]
		if class != geolocationClass {
			continue
		}
		path := ce.EnricherOptions["FilePath"]
		data, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("context enricher %s: geolocation file %q is not provided", ce.Name, path)
		}
		g, err := parseGeolocation(data, parseBoolOption(ce.EnricherOptions["IPInDotFormat"], true))
		if err != nil {
			return nil, fmt.Errorf("context enricher %s: geolocation file %q: %w", ce.Name, path, err)
		}
		g.prefix = "LOCATION_" + ce.EnricherOptions["geolocation.meta.prefix"]
		out = append(out, g)
	}
	return out, nil
}

// parseGeolocation reads Ranger's geolocation format: '#' starts a
// comment line; the first other line names the fields (FROM_IP, TO_IP,
// then the location's, optionally after a '!'); each further line is a
// range, its addresses in dot notation or as numbers, then the location.
func parseGeolocation(data []byte, dotted bool) (geolocationEnricher, error) {
	var g geolocationEnricher
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := javaSplit(strings.TrimPrefix(line, "!"))
		if g.fields == nil {
			if len(fields) < 2 {
				return g, fmt.Errorf("line %d: the header names no location field", n)
			}
			g.fields = fields[2:]
			continue
		}
		if len(fields) < 2 {
			return g, fmt.Errorf("line %d: want FROM_IP,TO_IP,...", n)
		}
		from, err := geoAddress(fields[0], dotted)
		if err != nil {
			return g, fmt.Errorf("line %d: %w", n, err)
		}
		to, err := geoAddress(fields[1], dotted)
		if err != nil {
			return g, fmt.Errorf("line %d: %w", n, err)
		}
		g.ranges = append(g.ranges, geoRange{from: from, to: to, values: fields[2:]})
	}
	if err := sc.Err(); err != nil {
		return g, err
	}
	sort.SliceStable(g.ranges, func(i, j int) bool { return g.ranges[i].from < g.ranges[j].from })
	return g, nil
}

// javaSplit splits on commas as Java's String.split does: trailing empty
// fields are dropped.
func javaSplit(s string) []string {
	f := strings.Split(s, ",")
	for len(f) > 0 && f[len(f)-1] == "" {
		f = f[:len(f)-1]
	}
	return f
}

func geoAddress(s string, dotted bool) (uint32, error) {
	if !dotted {
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return 0, fmt.Errorf("address %q: %w", s, err)
		}
		return uint32(v), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Is4() {
		return 0, fmt.Errorf("address %q: want an IPv4 address", s)
	}
	b := a.As4()
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]), nil
}

// lookup returns the location of an address, ok false when no range
// holds it.
func (g *geolocationEnricher) lookup(ip string) ([]string, bool) {
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.Unmap().Is4() {
		return nil, false
	}
	b := a.Unmap().As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	// Ranges do not overlap: the last one starting at or below v is the
	// only one that can hold it.
	i := sort.Search(len(g.ranges), func(i int) bool { return g.ranges[i].from > v })
	if i > 0 && v <= g.ranges[i-1].to {
		return g.ranges[i-1].values, true
	}
	return nil, false
}

// enrich is the context values the evaluator's enrichers give a request.
func (e *Evaluator) enrich(req *Request) map[string]string {
	if len(e.enrichers) == 0 || req.ClientIPAddress == "" {
		return nil
	}
	out := map[string]string{}
	for i := range e.enrichers {
		g := &e.enrichers[i]
		values, ok := g.lookup(req.ClientIPAddress)
		if !ok {
			continue
		}
		for k := 0; k < len(values) && k < len(g.fields); k++ {
			out[g.prefix+g.fields[k]] = values[k]
		}
	}
	return out
}
