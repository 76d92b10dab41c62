package postgres_test

import (
	"testing"

	"github.com/tablehouse/baccarat/responsible/responsibletest"
)

func TestResponsibleConformance(t *testing.T) {
	needPostgres(t)
	responsibletest.Run(t, func(t *testing.T) responsibletest.Store { return open(t) })
}
