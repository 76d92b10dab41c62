package tablejson

import "github.com/tablehouse/baccarat"

// appendUint appends v in decimal, as strconv.AppendUint does, but writes the digits in
// place: the events' numbers are short, and strconv's copy from its own buffer cost more
// than the digits.
func appendUint(b []byte, v uint64) []byte {
	if v < 10 {
		return append(b, byte('0'+v))
	}
	n := 2
	for n < 20 && v >= pow10[n] {
		n++
	}
	if cap(b)-len(b) < n {
		b = append(b, make([]byte, n)...)[:len(b)]
	}
	b = b[:len(b)+n]
	i := len(b)
	for v >= 100 {
		q := v / 100
		r := (v - q*100) * 2
		i -= 2
		b[i], b[i+1] = digitPairs[r], digitPairs[r+1]
		v = q
	}
	if v >= 10 {
		b[i-2], b[i-1] = digitPairs[v*2], digitPairs[v*2+1]
	} else {
		b[i-1] = byte('0' + v)
	}
	return b
}

// appendInt appends v in decimal, as strconv.AppendInt does.
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		return appendUint(append(b, '-'), uint64(-v)) // -MinInt64 wraps to itself, 1<<63
	}
	return appendUint(b, uint64(v))
}

// appendMoney appends an amount in minor units, as appendInt does.
func appendMoney(b []byte, m baccarat.Money) []byte { return appendInt(b, int64(m)) }

var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

const digitPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" + "30313233343536373839" +
	"40414243444546474849" + "50515253545556575859" + "60616263646566676869" + "70717273747576777879" +
	"80818283848586878889" + "90919293949596979899"
