package gpu

import (
	"bytes"
	"encoding/binary"
	"unsafe"
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

// littleEndian is whether this machine stores numbers as the device does.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// WordsOf is Words(vs) for a slice of one fixed-size type, without
// reflection per value: where T's memory is its encoding (a little-endian
// machine, no padding between or after fields, a whole number of words),
// the slice's bytes are copied as they are. A frame of 1024 temporal
// samples uploads 20 MB of genomes, which encoding/binary took ~100 ms to
// encode on the H100 host while the GPU waited.
func WordsOf[T any](vs []T) []uint32 {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(vs) == 0 || !littleEndian || size%4 != 0 || binary.Size(zero) != size {
		return Words(vs)
	}
	out := make([]uint32, len(vs)*size/4)
	n := len(vs) * size
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), n), unsafe.Slice((*byte)(unsafe.Pointer(&vs[0])), n))
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
