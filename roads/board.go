package roads

import (
	"github.com/tablehouse/baccarat"
)

// Cell is one Big Road cell: a Banker or Player result, with the ties that followed it and its
// round's flags (ROADS.md, Model).
type Cell struct {
	Side  baccarat.Winner // BankerWins or PlayerWins
	Round int             // the round's index in the shoe, which is also its Bead Plate place
	// Ties is how many ties followed this result before the next Banker or Player result:
	// a tie never takes a cell of its own.
	Ties       int
	PlayerPair bool
	BankerPair bool
	Natural    bool
}

// Column is one logical Big Road column: a streak of one side, of any length.
type Column struct {
	Side  baccarat.Winner
	Cells []Cell
}

// BigRoad is the logical Big Road: the ties before the first Banker or Player result, and the
// columns. Columns have no length limit; all logic reads their lengths, never display
// positions (ROADS.md, Model).
type BigRoad struct {
	LeadingTies int
	Columns     []Column
}

// span is a logical column inside Board.cells: cells[start : start+n], all of one side.
type span struct {
	side     baccarat.Winner
	start, n int
}

// Board is every road of one shoe, kept up to date one round at a time. The zero Board is an
// empty shoe. A Board holds derived data only: for a voided or corrected round, build a new
// one from the corrected list with New (ROADS.md: "the roads are recomputed from the list").
// A Board is not safe for concurrent use, and must not be copied once used.
type Board struct {
	rounds      []Round
	leadingTies int
	cells       []Cell // Big Road cells in order; columns are consecutive runs of them
	cols        []span
	bigGrid     grid
	derived     [3]derivedRoad // indexed by Kind−1
	count       tally
}

// tally holds the running counts the statistics report, so they cost nothing to refresh.
type tally struct {
	banker, player, tie            int
	playerPairs, bankerPairs, nats int
	longestBanker, longestPlayer   int
}

// New returns the roads of a shoe's rounds in order. It checks every round first and builds
// nothing when one is invalid.
func New(rounds []Round) (*Board, error) {
	for i, r := range rounds {
		if err := r.Valid(); err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "round %d: %s", i+1, err)
		}
	}
	b := &Board{}
	b.grow(len(rounds))
	for _, r := range rounds {
		b.append(r)
	}
	return b, nil
}

// Append adds the shoe's next settled round and updates every road in amortised constant time.
// An invalid round is refused and changes nothing.
func (b *Board) Append(r Round) error {
	if err := r.Valid(); err != nil {
		return err
	}
	b.append(r)
	return nil
}

func (b *Board) append(r Round) {
	b.rounds = append(b.rounds, r)
	b.count.add(r)
	if r.Winner == baccarat.Tie {
		if len(b.cells) == 0 {
			b.leadingTies++
		} else {
			b.cells[len(b.cells)-1].Ties++
		}
		return
	}
	b.cells = append(b.cells, Cell{
		Side: r.Winner, Round: len(b.rounds) - 1,
		PlayerPair: r.PlayerPair, BankerPair: r.BankerPair, Natural: r.Natural,
	})
	last := len(b.cols) - 1
	newColumn := last < 0 || b.cols[last].side != r.Winner
	if newColumn {
		b.cols = append(b.cols, span{side: r.Winner, start: len(b.cells) - 1})
		last++
	}
	b.cols[last].n++
	b.count.streak(r.Winner, b.cols[last].n)
	b.bigGrid.add(newColumn)

	c, row := last, b.cols[last].n-1
	length := func(i int) int { return b.cols[i].n }
	for i, k := range Kinds {
		if m := markFor(length, c, row, int(k)); m != None {
			b.derived[i].add(m)
		}
	}
}

// grow sizes every slice for n rounds at once, so a whole shoe costs a dozen allocations
// instead of a few per road.
func (b *Board) grow(n int) {
	b.rounds, b.cells, b.cols = make([]Round, 0, n), make([]Cell, 0, n), make([]span, 0, n)
	b.bigGrid.grow(n)
	for i := range b.derived {
		b.derived[i].marks = make([]Colour, 0, n)
		b.derived[i].grid.grow(n)
	}
}

func (t *tally) add(r Round) {
	switch r.Winner {
	case baccarat.BankerWins:
		t.banker++
	case baccarat.PlayerWins:
		t.player++
	default:
		t.tie++
	}
	t.playerPairs += btoi(r.PlayerPair)
	t.bankerPairs += btoi(r.BankerPair)
	t.nats += btoi(r.Natural)
}

func (t *tally) streak(side baccarat.Winner, n int) {
	if side == baccarat.BankerWins {
		t.longestBanker = max(t.longestBanker, n)
	} else {
		t.longestPlayer = max(t.longestPlayer, n)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Reset empties the board for a new shoe, keeping its memory so the next shoe's appends do
// not allocate.
func (b *Board) Reset() {
	b.rounds, b.cells, b.cols = b.rounds[:0], b.cells[:0], b.cols[:0]
	b.leadingTies, b.count = 0, tally{}
	b.bigGrid.reset()
	for i := range b.derived {
		b.derived[i].reset()
	}
}

// Len is the number of rounds on the board.
func (b *Board) Len() int { return len(b.rounds) }

// Rounds returns the board's rounds in order (a copy).
func (b *Board) Rounds() []Round { return append([]Round(nil), b.rounds...) }

// BigRoad returns the logical Big Road (a copy the caller may keep).
func (b *Board) BigRoad() BigRoad {
	cells := append([]Cell(nil), b.cells...)
	cols := make([]Column, len(b.cols))
	for i, s := range b.cols {
		end := s.start + s.n
		cols[i] = Column{Side: s.side, Cells: cells[s.start:end:end]}
	}
	return BigRoad{LeadingTies: b.leadingTies, Columns: cols}
}

// Bead is one Bead Plate cell: every round has one, ties included. (Round is a named field,
// not embedded, so Round's text form does not stand in for the whole bead.)
type Bead struct {
	Pos
	Round Round
}

// BeadPlate is the Bead Plate: round i at column i/6, row i%6, filled down each 6-row column
// and then the next to the right (ROADS.md, Bead Plate).
func (b *Board) BeadPlate() []Bead {
	out := make([]Bead, len(b.rounds))
	for i, r := range b.rounds {
		out[i] = Bead{Pos: Pos{Column: i / Rows, Row: i % Rows}, Round: r}
	}
	return out
}

// Placed is one Big Road cell as drawn on the 6-row grid. LeadingTies is set on the first cell
// only: leading ties are drawn on the first cell once it exists (ROADS.md, Big Road display).
type Placed struct {
	Pos
	Cell
	LeadingTies int
}

// BigRoadGrid is the Big Road as drawn: every cell in order with its grid position, columns
// wrapping into dragon tails at the bottom row or when an earlier tail is in the way.
func (b *Board) BigRoadGrid() []Placed {
	out := make([]Placed, len(b.cells))
	for i, c := range b.cells {
		out[i] = Placed{Pos: b.bigGrid.at[i], Cell: c}
	}
	if len(out) > 0 {
		out[0].LeadingTies = b.leadingTies
	}
	return out
}
