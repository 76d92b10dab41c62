package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/tablehouse/baccarat"
)

// # House bots
//
// A house bot is an entrant the house plays itself, to fill a table. It is its own kind of
// participant: its id is BotPrefix and a name ("bot.house-1"), and the dot is no character of
// an outside id (baccarat.CheckID), so no player account, staff account, launch or token
// can ever be named as a bot, nor a bot as anyone who can sign in. A bot registers only with
// Command.Bot (and a player only without it), so a player's command can never enter one; its
// entry is marked (Entrant.Bot) wherever it is shown.

// BotPrefix starts every house bot's id.
const BotPrefix = "bot."

// IsBot reports whether id is a house bot's: BotPrefix and 1 to 60 letters, digits, _ or -.
func IsBot(id string) bool {
	name, ok := strings.CutPrefix(id, BotPrefix)
	return ok && baccarat.ValidID(name) && len(id) <= baccarat.MaxIDLen
}

// CheckBot checks a house bot's id.
func CheckBot(id string) error {
	if IsBot(id) {
		return nil
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "bot id %q: a house bot's id is %q and a name of letters, digits, _ and - (%d characters in all at most)",
		baccarat.Truncate(id, 80), BotPrefix, baccarat.MaxIDLen)
}

// checkEntrant checks the id of who a register command enters: a bot's with Command.Bot, a
// player's (an outside id, never a bot's) without.
func checkEntrant(c *Command) error {
	if c.Bot {
		return CheckBot(c.Player)
	}
	return baccarat.CheckID("player", c.Player)
}

// # The house's secret
//
// Everything the house draws during a tournament comes from the start command: the seating
// Seed, and a Secret (hex, 32 random bytes from crypto/rand in the host) from which the
// host draws its bots' choices. Both are journalled in the started event, but a State shows
// only their Commitment until the tournament is over (finished or cancelled); then it
// shows both, so anyone can check that the seating and every bot's wager were drawn from
// what was committed before the first card, as with a shoe's commitment (SPEC §2). While
// it runs, nothing a player can read predicts a seat of a later round or a bot's wager.

// Commitment is the SHA-256, in hex, of "<seed>:<secret>": what a tournament publishes at its
// start for its seed and secret.
func Commitment(seed uint64, secret string) string {
	sum := sha256.Sum256([]byte(strconv.FormatUint(seed, 10) + ":" + secret))
	return hex.EncodeToString(sum[:])
}

// Secret is the house's secret drawn at the start ("" before it, or in a simulation that
// gave none). The host reads it to seed its bots; a State shows it only once the
// tournament is over.
func (t *Tournament) Secret() string { return t.secret }

// over reports whether the tournament has ended: finished or cancelled.
func (t *Tournament) over() bool { return t.phase == PhaseFinished || t.phase == PhaseCancelled }
