package tournament

import (
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat"
)

// Duration is a time.Duration written as people read it in configurations and journals:
// "90s", "20m", "1h30m". A JSON number is read as nanoseconds, as Go writes a Duration.
type Duration time.Duration

// String is the Go form: "1m30s".
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON writes the readable form.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads "90s" or a number of nanoseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n int64
		if json.Unmarshal(b, &n) != nil {
			return badRequest("%s is not a duration such as \"90s\" or \"20m\"", b)
		}
		*d = Duration(n)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%q is not a duration such as \"90s\" or \"20m\"", s)
	}
	*d = Duration(v)
	return nil
}
