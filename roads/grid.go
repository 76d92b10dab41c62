package roads

// Rows is the height of every display grid: the Bead Plate, the Big Road and the three derived
// roads are drawn six rows high (ROADS.md, Bead Plate and Big Road display).
const Rows = 6

// Pos is a cell of a display grid: Column counts from 0 at the left, Row from 0 at the top.
type Pos struct {
	Column int `json:"column"`
	Row    int `json:"row"`
}

// grid places the items of a streak road — the Big Road, or a derived road drawn "like a Big
// Road of red/blue marks" — on the 6-row display, one item at a time (ROADS.md, Big Road
// display):
//
//   - a logical column starts at row 0 of the display column after the one where the previous
//     logical column started;
//   - a streak goes down while the cell below is free and inside the 6 rows; otherwise it turns
//     right and runs along its row (the dragon tail), skipping occupied cells.
//
// ROADS.md does not say where a logical column starts when a dragon tail running along row 0
// already holds that cell (it takes five nested tails to get there). We then start it at the
// first free row-0 cell further right, which keeps "no two display items share a grid cell"
// and keeps start columns increasing.
//
// Placing an item looks at the previous item and at most the cells it skips, so it is
// amortised constant time; occupancy is a bit mask per display column.
type grid struct {
	taken  []uint8 // taken[c] has bit r set when (c, r) holds an item
	at     []Pos   // where each item is drawn, in order
	start  int     // display column where the current logical column started
	turned bool    // the current logical column has turned right into its dragon tail
}

// add places the next item; newColumn says it starts a logical column.
func (g *grid) add(newColumn bool) Pos {
	var p Pos
	if newColumn || len(g.at) == 0 {
		c := 0
		if len(g.at) > 0 {
			c = g.start + 1
		}
		for g.occupied(c, 0) {
			c++
		}
		g.start, g.turned = c, false
		p = Pos{Column: c}
	} else {
		last := g.at[len(g.at)-1]
		if !g.turned && last.Row+1 < Rows && !g.occupied(last.Column, last.Row+1) {
			p = Pos{Column: last.Column, Row: last.Row + 1}
		} else {
			g.turned = true
			c := last.Column + 1
			for g.occupied(c, last.Row) {
				c++
			}
			p = Pos{Column: c, Row: last.Row}
		}
	}
	for len(g.taken) <= p.Column {
		g.taken = append(g.taken, 0)
	}
	g.taken[p.Column] |= 1 << p.Row
	g.at = append(g.at, p)
	return p
}

func (g *grid) occupied(c, r int) bool {
	return c < len(g.taken) && g.taken[c]&(1<<r) != 0
}

// grow makes room for n items.
func (g *grid) grow(n int) {
	g.taken, g.at = make([]uint8, 0, n), make([]Pos, 0, n)
}

// reset empties the grid and keeps its memory for the next shoe.
func (g *grid) reset() {
	g.taken, g.at = g.taken[:0], g.at[:0]
	g.start, g.turned = 0, false
}
