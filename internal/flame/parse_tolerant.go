package flame

// JWildfire writes attribute names that are not XML names: a second copy of
// a variation in one xform as `bubble#1#="0.5"`, and parameter names with
// spaces and punctuation (`sunvoroni_color mode`, `dc_booleans_^/&/|`). It
// reads them back, so they are what its users have; encoding/xml refuses
// them. tolerantNames rewrites such names, byte for byte, into valid names
// before decoding and remembers the originals, so that offsets (and so
// line:col in errors) stay those of the file.

import "bytes"

// nameMap maps a rewritten attribute name back to what the file says.
type nameMap map[string]string

// original returns the name the file wrote for a decoded attribute name.
func (m nameMap) original(name string) string {
	if o, ok := m[name]; ok {
		return o
	}
	return name
}

// tolerantNames returns data with every attribute name that is not an XML
// name rewritten (each offending byte replaced by '.', a leading one by
// '_'), and the map back. data itself is returned, unchanged, when nothing
// needed rewriting: flam3's own files take that path.
func tolerantNames(data []byte) ([]byte, nameMap) {
	var out []byte
	var names nameMap
	for i := 0; i < len(data); {
		lt := bytes.IndexByte(data[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		switch {
		case bytes.HasPrefix(data[i:], []byte("<!--")):
			i = skipPast(data, i+4, "-->")
			continue
		case bytes.HasPrefix(data[i:], []byte("<![CDATA[")):
			i = skipPast(data, i+9, "]]>")
			continue
		case bytes.HasPrefix(data[i:], []byte("<?")):
			i = skipPast(data, i+2, "?>")
			continue
		case i+1 < len(data) && !isNameStart(data[i+1]):
			i++ // an end tag, a declaration or stray text: the decoder judges it
			continue
		}
		// A start tag: its name, then attributes up to '>' or "/>".
		j := i + 1
		for j < len(data) && isNameByte(data[j]) {
			j++
		}
		for j < len(data) {
			for j < len(data) && isSpace(data[j]) {
				j++
			}
			if j >= len(data) || data[j] == '>' || data[j] == '<' || data[j] == '"' || data[j] == '\'' ||
				(data[j] == '/' && j+1 < len(data) && data[j+1] == '>') {
				break
			}
			start := j
			end, eq, ok := attrNameEnd(data, j)
			if !ok {
				j = eq
				break
			}
			if !validName(data[start:end]) {
				if out == nil {
					out = bytes.Clone(data)
					names = nameMap{}
				}
				fixed := out[start:end]
				for k, c := range fixed {
					if k == 0 && !isNameStart(c) {
						fixed[k] = '_'
					} else if !isNameByte(c) {
						fixed[k] = '.'
					}
				}
				names[string(fixed)] = string(data[start:end])
			}
			j = skipValue(data, eq+1)
		}
		i = j
	}
	if out == nil {
		return data, nil
	}
	return out, names
}

// attrNameEnd finds the end of the attribute name starting at j (trailing
// spaces trimmed) and the '=' after it. Everything up to '=' is the name,
// spaces and punctuation included, but a '>', "/>", '<' or quote first
// means this is not an attribute: ok is false and eq where scanning stopped.
func attrNameEnd(data []byte, j int) (end, eq int, ok bool) {
	k := j
	for ; k < len(data); k++ {
		c := data[k]
		if c == '=' {
			break
		}
		if c == '>' || c == '<' || c == '"' || c == '\'' || c == '\n' || (c == '/' && k+1 < len(data) && data[k+1] == '>') {
			return 0, k, false
		}
	}
	if k >= len(data) {
		return 0, k, false
	}
	end = k
	for end > j && isSpace(data[end-1]) {
		end--
	}
	return end, k, end > j
}

// skipValue returns the index just past the quoted value after '=' at j
// (spaces allowed before it), or j for an unquoted one.
func skipValue(data []byte, j int) int {
	for j < len(data) && isSpace(data[j]) {
		j++
	}
	if j >= len(data) || (data[j] != '"' && data[j] != '\'') {
		return j
	}
	q := bytes.IndexByte(data[j+1:], data[j])
	if q < 0 {
		return len(data)
	}
	return j + 1 + q + 1
}

func skipPast(data []byte, i int, end string) int {
	k := bytes.Index(data[i:], []byte(end))
	if k < 0 {
		return len(data)
	}
	return i + k + len(end)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isNameStart and isNameByte are XML's name rules on ASCII; any byte of a
// multi-byte UTF-8 character is let through for the decoder to judge.
func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
}

func validName(b []byte) bool {
	for k, c := range b {
		if k == 0 && !isNameStart(c) || !isNameByte(c) {
			return false
		}
	}
	return len(b) > 0
}
