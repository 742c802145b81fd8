package gpu

import (
	"bytes"
	"encoding/binary"
)

// Words encodes fixed-size values (structs mirroring a .cuh header, arrays,
// numbers) as the little-endian 32-bit words a device buffer holds, padded
// to a whole word. Passing anything else is a programming error: it panics.
func Words(vs ...any) []uint32 {
	var b bytes.Buffer
	for _, v := range vs {
		if err := binary.Write(&b, binary.LittleEndian, v); err != nil {
			panic("gpu.Words: " + err.Error())
		}
	}
	for b.Len()%4 != 0 {
		b.WriteByte(0)
	}
	out := make([]uint32, b.Len()/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b.Bytes()[4*i:])
	}
	return out
}

// Decode fills the fixed-size value v (a pointer) from words, the inverse of Words.
func Decode(words []uint32, v any) error {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return binary.Read(bytes.NewReader(b), binary.LittleEndian, v)
}
