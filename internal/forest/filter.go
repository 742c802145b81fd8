package forest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Condition is one --where row filter: COLUMN OP VALUE.
//
//	Status=alive            the field equals the value (as numbers when
//	                        both are numbers: 7 matches 7.0)
//	Status=alive|A          ... any of the values separated by |
//	Status!=dead            ... none of them
//	gbh14>0  DBH>=100  ...  numeric comparison (<, <=, >, >=); a field that
//	                        is not a number fails it
type Condition struct {
	Column string
	Op     string // =, !=, <, <=, >, >=
	Values []string
	num    float64 // the value of <, <=, >, >=
}

func (c Condition) String() string { return c.Column + c.Op + strings.Join(c.Values, "|") }

// ParseCondition parses one --where expression.
func ParseCondition(s string) (Condition, error) {
	i := strings.IndexAny(s, "=!<>")
	if i <= 0 {
		return Condition{}, fmt.Errorf("invalid --where %q: want COLUMN=VALUE, COLUMN!=VALUE or COLUMN<N (also <=, >, >=)", s)
	}
	c := Condition{Column: strings.TrimSpace(s[:i])}
	rest := s[i:]
	for _, op := range []string{"!=", "<=", ">=", "=", "<", ">"} {
		if strings.HasPrefix(rest, op) {
			c.Op = op
			rest = rest[len(op):]
			break
		}
	}
	if c.Op == "" || c.Column == "" {
		return Condition{}, fmt.Errorf("invalid --where %q: want COLUMN=VALUE, COLUMN!=VALUE or COLUMN<N (also <=, >, >=)", s)
	}
	switch c.Op {
	case "=", "!=":
		for _, v := range strings.Split(rest, "|") {
			c.Values = append(c.Values, strings.TrimSpace(v))
		}
	default:
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err != nil || math.IsNaN(v) {
			return Condition{}, fmt.Errorf("invalid --where %q: %q is not a number to compare with", s, rest)
		}
		c.Values, c.num = []string{strings.TrimSpace(rest)}, v
	}
	return c, nil
}

type boundCondition struct {
	Condition
	col int
}

// keep says whether a record passes every condition. A record too short to
// have a condition's column fails it.
func keep(rec []string, conds []boundCondition) bool {
	for _, c := range conds {
		if c.col >= len(rec) || !c.holds(strings.TrimSpace(rec[c.col])) {
			return false
		}
	}
	return true
}

func (c Condition) holds(field string) bool {
	switch c.Op {
	case "=", "!=":
		match := false
		for _, v := range c.Values {
			if equalField(field, v) {
				match = true
				break
			}
		}
		return match == (c.Op == "=")
	}
	x, err := strconv.ParseFloat(field, 64)
	if err != nil || math.IsNaN(x) {
		return false
	}
	switch c.Op {
	case "<":
		return x < c.num
	case "<=":
		return x <= c.num
	case ">":
		return x > c.num
	default:
		return x >= c.num
	}
}

func equalField(field, v string) bool {
	if field == v {
		return true
	}
	a, err1 := strconv.ParseFloat(field, 64)
	b, err2 := strconv.ParseFloat(v, 64)
	return err1 == nil && err2 == nil && a == b
}
