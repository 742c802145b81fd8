package pga

import (
	"errors"
	"fmt"
	"strings"
)

// LotOpError is an operation that failed on lot Lot's own polygon (a roof, an
// offset or a setback the straight skeleton cannot build there). The
// evaluator knows only the lot's number; a caller that holds the lots
// names it as the input does (NameLots: the GeoJSON feature id too).
// (LotError, geojson.go, is a lot the input itself gets wrong.)
type LotOpError struct {
	Lot  int
	Name string // how to name the lot; "" for "lot N"
	Err  error
}

func (e *LotOpError) Error() string {
	name := e.Name
	if name == "" {
		name = fmt.Sprintf("lot %d", e.Lot)
	}
	return name + ": " + e.Err.Error()
}

func (e *LotOpError) Unwrap() error { return e.Err }

// NameLots returns err with the LotOpError in its chain naming its lot as
// lots does (Lot.Name: the feature id where the GeoJSON gave one). The
// wrappers around it fixed their messages when they were made, so the
// message is rewritten; the chain (errors.Is, errors.As) is err's.
func NameLots(err error, lots []Lot) error {
	var le *LotOpError
	if !errors.As(err, &le) || le.Lot < 0 || le.Lot >= len(lots) || le.Name != "" {
		return err
	}
	old := le.Error()
	le.Name = lots[le.Lot].Name()
	return &renamedError{msg: strings.Replace(err.Error(), old, le.Error(), 1), err: err}
}

// renamedError is err with another message.
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }
