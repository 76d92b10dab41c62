package sqlite_test

import (
	"testing"

	"github.com/tablehouse/baccarat/responsible/responsibletest"
)

func TestResponsibleConformance(t *testing.T) {
	responsibletest.Run(t, func(t *testing.T) responsibletest.Store { return open(t) })
}
