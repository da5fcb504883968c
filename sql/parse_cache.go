package sql

import (
	"container/list"
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
	"google.golang.org/protobuf/proto"
)

// Bounds of the parse cache: the texts dashboards, ORMs and psql send
// again and again are a few hundred, each a few KiB with its tree.
const (
	parseCacheBytes   = 8 << 20
	parseCacheMaxText = 64 << 10
)

// parseCache remembers PostgreSQL's parser's output for recently parsed
// query texts, as the protobuf encoding the parser returns. Parsing a
// catalog query of a few KiB took about a sixth of its time, most of it
// in the C parser; a hit only decodes the encoding, into a tree of its
// own that the statement may change. Only texts that parse are kept; the
// parse of a text depends on nothing else, so one cache serves every
// session.
type parseCache struct {
	mu     sync.Mutex
	bytes  int
	order  *list.List // of *parsedText, most recently used first
	byText map[string]*list.Element
}

type parsedText struct {
	text string
	tree []byte
}

func newParseCache() *parseCache {
	return &parseCache{order: list.New(), byText: map[string]*list.Element{}}
}

// parse is pg_query.Parse through the cache; a nil cache remembers
// nothing.
func (c *parseCache) parse(text string) (*pg_query.ParseResult, error) {
	if c == nil {
		return pg_query.Parse(text)
	}
	encoded, ok := c.get(text)
	if !ok {
		var err error
		if encoded, err = pgparser.ParseToProtobuf(text); err != nil {
			return nil, err
		}
		c.put(text, encoded)
	}
	tree := &pg_query.ParseResult{}
	if err := proto.Unmarshal(encoded, tree); err != nil {
		return nil, err
	}
	return tree, nil
}

func (c *parseCache) get(text string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byText[text]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*parsedText).tree, true
}

func (c *parseCache) put(text string, tree []byte) {
	size := len(text) + len(tree)
	if size > parseCacheMaxText {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byText[text]; ok {
		return
	}
	c.byText[text] = c.order.PushFront(&parsedText{text: text, tree: tree})
	c.bytes += size
	for c.bytes > parseCacheBytes {
		old := c.order.Remove(c.order.Back()).(*parsedText)
		delete(c.byText, old.text)
		c.bytes -= len(old.text) + len(old.tree)
	}
}
