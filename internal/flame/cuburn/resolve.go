package cuburn

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/input"
)

// cbDB finds the documents an edge or an inheriting node names
// ("nodes/NAME"), as cuburn's FilesystemDB does: the id plus ".json" under
// the genome database directory.
type cbDB struct {
	roots []string
	docs  map[string]*jdoc
	read  func(string) ([]byte, error)
}

// maxCBBaseDepth bounds chains of "base" documents (and catches cycles).
const maxCBBaseDepth = 32

func (db *cbDB) get(id string, ref *jval) (*jval, error) {
	name := id
	if !strings.HasSuffix(name, ".json") {
		name += ".json"
	}
	var tried []string
	for _, root := range db.roots {
		p := filepath.FromSlash(name)
		if !filepath.IsAbs(p) { // as os.path.join, an absolute id ignores the root
			p = filepath.Join(root, p)
		}
		if d, ok := db.docs[p]; ok {
			return d.root, nil
		}
		data, err := db.read(p)
		if errors.Is(err, fs.ErrNotExist) {
			tried = append(tried, p)
			continue
		}
		if err != nil {
			return nil, ref.errf("%q: %v", id, err)
		}
		d, err := parseJSON(data, p)
		if err != nil {
			return nil, err
		}
		if d.root.kind != jObj {
			return nil, d.root.errf("want an object, got %s", d.root.kind)
		}
		db.docs[p] = d
		return d.root, nil
	}
	return nil, ref.errf("%q names a missing file (looked for %s)", id, strings.Join(tried, ", "))
}

// cbLeaf is one flattened key of a document.
type cbLeaf struct {
	key string
	val *jval
}

// cbFlatten is cuburn's flatten: nested objects become dotted keys (keys
// with dots in them count the same), everything else is a leaf.
func cbFlatten(v *jval, prefix string, out *[]cbLeaf) {
	for i, k := range v.keys {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if e := v.vals[i]; e.kind == jObj {
			cbFlatten(e, key, out)
		} else {
			*out = append(*out, cbLeaf{key, e})
		}
	}
}

// checkKey refuses a key cuburn's schema does not know, naming unknown
// variations as such.
func checkKey(spec *cbSpec, key string, v *jval) (*cbSpec, error) {
	path := strings.Split(key, ".")
	if s := spec.lookup(path); s != nil {
		return s, nil
	}
	for i, p := range path {
		if p == "variations" && i+1 < len(path) {
			if _, ok := cbVariations[path[i+1]]; !ok {
				return nil, v.errf("unknown variation %q: cuburn's variations are %s", path[i+1], strings.Join(cbVariationNames(), ", "))
			}
		}
	}
	return nil, v.errf("unknown key %q", key)
}

// resolve is cuburn's resolve: the document's chain of "base" documents is
// flattened and merged, later documents replacing earlier values; in edges,
// spline knot lists and lists are concatenated instead (so an edge that
// inherits adds knots). The result is unflattened into a fresh object.
func (db *cbDB) resolve(item *jval) (*jval, error) {
	typ := item.get("type")
	if typ == nil || typ.kind != jStr || (typ.str != "node" && typ.str != "edge") {
		return nil, item.errf(`want "type": "node" or "edge"`)
	}
	isEdge := typ.str == "edge"
	spec := cbNodeSpec
	if isEdge {
		spec = cbEdgeSpec
	}
	chain := []*jval{item}
	for cur := item; ; {
		b := cur.get("base")
		if b == nil || b.kind == jNull {
			break
		}
		if b.kind != jStr {
			return nil, b.errf("base must be a string naming a document")
		}
		if len(chain) > maxCBBaseDepth {
			return nil, b.errf("more than %d levels of base documents (a cycle?)", maxCBBaseDepth)
		}
		next, err := db.get(b.str, b)
		if err != nil {
			return nil, err
		}
		if t := next.get("type"); t == nil || t.kind != jStr || t.str != typ.str {
			return nil, b.errf("base %q is not a %s", b.str, typ.str)
		}
		chain = append([]*jval{next}, chain...)
		cur = next
	}
	merged := map[string]*jval{}
	var order []string
	for _, doc := range chain {
		var leaves []cbLeaf
		cbFlatten(doc, "", &leaves)
		for _, l := range leaves {
			s, err := checkKey(spec, l.key, l.val)
			if err != nil {
				return nil, err
			}
			prev, seen := merged[l.key]
			if !seen {
				order = append(order, l.key)
			}
			if isEdge && (s.kind == cbSpl || s.kind == cbList) {
				if l.val.kind != jArr {
					return nil, l.val.errf("%s in an edge must be a list of knots (time, value pairs), got %s", l.key, l.val.kind)
				}
				if seen {
					cat := *l.val
					cat.arr = append(append([]*jval(nil), prev.arr...), l.val.arr...)
					merged[l.key] = &cat
					continue
				}
			}
			merged[l.key] = l.val
		}
	}
	sort.Strings(order)
	out := &jval{kind: jObj, pos: item.pos, doc: item.doc}
	for _, key := range order {
		v := merged[key]
		o := out
		parts := strings.Split(key, ".")
		for _, p := range parts[:len(parts)-1] {
			next := o.get(p)
			if next == nil {
				next = &jval{kind: jObj, pos: v.pos, doc: v.doc}
				o.keys, o.vals = append(o.keys, p), append(o.vals, next)
			} else if next.kind != jObj {
				return nil, v.errf("%s conflicts with a value given for %s", key, p)
			}
			o = next
		}
		last := parts[len(parts)-1]
		if prev := o.get(last); prev != nil {
			return nil, v.errf("%s conflicts with keys below it", key)
		}
		o.keys, o.vals = append(o.keys, last), append(o.vals, v)
	}
	return out, nil
}

// splitRef is cuburn's _split_ref_id: "nodes/NAME@0.25" is the node and a
// temporal offset in turns.
func splitRef(ref *jval) (string, float64, error) {
	if ref == nil || ref.kind != jStr {
		return "", 0, fmt.Errorf("want a string")
	}
	id, off, ok := strings.Cut(ref.str, "@")
	if !ok {
		return id, 0, nil
	}
	f, err := strconv.ParseFloat(off, 64)
	if err != nil || !finite(f) {
		return "", 0, ref.errf("link %q: the offset after '@' must be a finite number of turns", ref.str)
	}
	return id, f, nil
}

// newCBDB is a database rooted at the directory above the given file's
// (flock/edges/X.json links flock/nodes/Y), then the file's own directory,
// then the working directory; root, when set, is the only place looked.
func newCBDB(path, root string) *cbDB {
	db := &cbDB{docs: map[string]*jdoc{}, read: readCuburnDoc}
	if root != "" {
		db.roots = []string{root}
		return db
	}
	dir := filepath.Dir(path)
	db.roots = []string{filepath.Dir(dir), dir, "."}
	return db
}

// readCuburnDoc reads a linked document, bounded as the file that links it.
func readCuburnDoc(path string) ([]byte, error) {
	return input.ReadFile(context.Background(), path, input.CuburnJSON)
}
