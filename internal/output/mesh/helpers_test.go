package mesh

import (
	"encoding/binary"
	"encoding/json"
)

func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
