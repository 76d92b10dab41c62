package roads

import "github.com/tablehouse/baccarat"

// View is every road of a board in its wire form: what `baccarat roads --json` prints and what
// a scoreboard page reads. Derived roads that have not started are [] (never null). An Ask
// entry is the mark the next result would give that road, even the mark that starts it, and
// null only where the road would still not exist after that result.
type View struct {
	BigRoad          ViewBigRoad  `json:"big_road"`
	BeadPlate        []ViewBead   `json:"bead_plate"`
	BigRoadGrid      []ViewPlaced `json:"big_road_grid"`
	BigEyeBoy        []Colour     `json:"big_eye_boy"`
	SmallRoad        []Colour     `json:"small_road"`
	CockroachPig     []Colour     `json:"cockroach_pig"`
	AskBanker        [3]Colour    `json:"ask_banker"`
	AskPlayer        [3]Colour    `json:"ask_player"`
	BigEyeBoyGrid    []Mark       `json:"big_eye_boy_grid"`
	SmallRoadGrid    []Mark       `json:"small_road_grid"`
	CockroachPigGrid []Mark       `json:"cockroach_pig_grid"`
	Stats            Stats        `json:"stats"`
	Settings         Settings     `json:"settings"` // the detector thresholds in force
	Notation         string       `json:"notation"` // the rounds, from which the view can be rebuilt
}

// View returns the board's wire form under the given detector thresholds; cardsLeft < 0 means
// unknown.
func (b *Board) View(set Settings, cardsLeft int) View {
	v := View{
		BigRoad:      ViewBigRoad{LeadingTies: b.leadingTies, Columns: make([]ViewColumn, len(b.cols))},
		BeadPlate:    make([]ViewBead, len(b.rounds)),
		BigRoadGrid:  make([]ViewPlaced, len(b.cells)),
		BigEyeBoy:    b.Road(BigEyeBoy),
		SmallRoad:    b.Road(SmallRoad),
		CockroachPig: b.Road(CockroachPig),
		AskBanker:    b.Ask(baccarat.BankerWins),
		AskPlayer:    b.Ask(baccarat.PlayerWins),

		BigEyeBoyGrid:    b.RoadGrid(BigEyeBoy),
		SmallRoadGrid:    b.RoadGrid(SmallRoad),
		CockroachPigGrid: b.RoadGrid(CockroachPig),
		Stats:            b.Stats(set, cardsLeft),
		Settings:         set.withDefaults(),
		Notation:         FormatRounds(b.rounds),
	}
	for i, s := range b.cols {
		col := ViewColumn{Side: s.side.Letter(), Cells: make([]ViewCell, s.n)}
		for j, c := range b.cells[s.start : s.start+s.n] {
			col.Cells[j] = viewCell(c)
		}
		v.BigRoad.Columns[i] = col
	}
	for i, bead := range b.BeadPlate() {
		r := bead.Round
		v.BeadPlate[i] = ViewBead{Pos: bead.Pos, Result: r.Winner.Letter(),
			PlayerPair: r.PlayerPair, BankerPair: r.BankerPair, Natural: r.Natural}
	}
	for i, p := range b.BigRoadGrid() {
		v.BigRoadGrid[i] = ViewPlaced{Pos: p.Pos, Side: p.Side.Letter(), ViewCell: viewCell(p.Cell), LeadingTies: p.LeadingTies}
	}
	return v
}

func viewCell(c Cell) ViewCell {
	return ViewCell{Ties: c.Ties, PlayerPair: c.PlayerPair, BankerPair: c.BankerPair, Natural: c.Natural}
}

// ViewBigRoad is the logical Big Road.
type ViewBigRoad struct {
	LeadingTies int          `json:"leading_ties"`
	Columns     []ViewColumn `json:"columns"`
}

// ViewColumn is one logical column; Side is "B" or "P".
type ViewColumn struct {
	Side  string     `json:"side"`
	Cells []ViewCell `json:"cells"`
}

// ViewCell is one Big Road cell.
type ViewCell struct {
	Ties       int  `json:"ties"`
	PlayerPair bool `json:"player_pair"`
	BankerPair bool `json:"banker_pair"`
	Natural    bool `json:"natural"`
}

// ViewBead is one Bead Plate cell; Result is "B", "P" or "T".
type ViewBead struct {
	Pos
	Result     string `json:"result"`
	PlayerPair bool   `json:"player_pair"`
	BankerPair bool   `json:"banker_pair"`
	Natural    bool   `json:"natural"`
}

// ViewPlaced is one Big Road cell on the grid. LeadingTies is on the first cell only.
type ViewPlaced struct {
	Pos
	Side string `json:"side"`
	ViewCell
	LeadingTies int `json:"leading_ties,omitempty"`
}
