package seamless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
)

// DefaultTimeout is a call's time limit when Client.Timeout is 0.
const DefaultTimeout = 5 * time.Second

// Client is the game server's side of the protocol: one operator, one secret. It is safe
// for concurrent use. It sends each call once and never retries, follows no redirects, and
// reads at most MaxBody bytes of an answer (see the package documentation for what its
// errors tell the caller).
type Client struct {
	BaseURL string // the operator's base URL: "https://wallet.example.com/seamless"
	Secret  []byte // the shared secret, at least MinSecret bytes
	// HTTP sends the calls; nil means http.DefaultClient. Its CheckRedirect is ignored: a
	// redirect is no answer.
	HTTP    *http.Client
	Timeout time.Duration // each call's limit, reading the answer included; 0: DefaultTimeout
	// Now stamps the calls (X-Timestamp); nil: time.Now.
	Now func() time.Time
	// RequireSignedAnswers is what the Client always does now: an answer without a right
	// X-Signature is no answer.
	//
	// Deprecated: answers must be signed whatever it says; it is kept so that code setting
	// it still builds.
	RequireSignedAnswers bool
}

// Balance reads a player's balance. An error other than a refusal is an
// *OutcomeUnknownError with an empty Tx: a read that can simply be asked again.
func (c *Client) Balance(ctx context.Context, q BalanceRequest) (Answer, error) {
	return c.call(ctx, PathBalance, "", &q)
}

// Debit takes a stake. On *OutcomeUnknownError the caller must roll the debit back.
func (c *Client) Debit(ctx context.Context, q DebitRequest) (Answer, error) {
	return c.call(ctx, PathDebit, q.Tx, &q)
}

// Credit pays a wager's return. On *OutcomeUnknownError the caller retries with the same
// request (and so the same tx id) until it has an answer.
func (c *Client) Credit(ctx context.Context, q CreditRequest) (Answer, error) {
	return c.call(ctx, PathCredit, q.Tx, &q)
}

// Rollback gives a debit's stake back; it is OK for a debit the operator never saw. On
// *OutcomeUnknownError the caller retries with the same request until it has an answer.
func (c *Client) Rollback(ctx context.Context, q RollbackRequest) (Answer, error) {
	return c.call(ctx, PathRollback, q.Tx, &q)
}

func (c *Client) call(ctx context.Context, path, tx string, q request) (Answer, error) {
	if err := c.ready(q); err != nil {
		return Answer{}, err
	}
	if err := ctx.Err(); err != nil {
		return Answer{}, err // nothing was sent
	}
	body := encode(q)
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.BaseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return Answer{}, &RefusedError{Code: CodeBadRequest, Message: "the operator's base URL: " + err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	key := DomainWallet.Key(c.Secret)
	sig := NewStamp(http.MethodPost, path, c.now()).Sign(req.Header, key, body)
	unknown := func(err error) error { return &OutcomeUnknownError{Op: path, Tx: tx, Err: err} }
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return Answer{}, unknown(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	switch {
	case err != nil:
		return Answer{}, unknown(fmt.Errorf("reading the answer: %w", err))
	case len(answer) > MaxBody:
		return Answer{}, unknown(fmt.Errorf("the answer is over %d bytes", MaxBody))
	}
	if err := checkAnswer(key, resp, sig, answer); err != nil {
		return Answer{}, unknown(err)
	}
	a, err := readAnswer(resp.StatusCode, answer)
	var ue *OutcomeUnknownError
	if errors.As(err, &ue) {
		ue.Op, ue.Tx = path, tx
	}
	return a, err
}

// ready refuses, before anything is sent, a request that breaks the rules or a client
// that cannot sign.
func (c *Client) ready(q request) error {
	if len(c.Secret) < MinSecret {
		return &RefusedError{Code: CodeBadSignature, Message: fmt.Sprintf("the client's secret is %d bytes: sign with at least %d", len(c.Secret), MinSecret)}
	}
	if err := q.Check(); err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			return &RefusedError{Code: re.Code, Message: re.Message}
		}
		return err
	}
	return nil
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c *Client) httpClient() *http.Client {
	var hc http.Client
	if c.HTTP != nil {
		hc = *c.HTTP
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &hc
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// checkAnswer believes an answer only when it is signed, for this call: its X-Signature
// covers its status, the request's signature and its body (AnswerMessage). Anything else,
// a refusal or a 200 alike, may come from anyone between us and the operator.
func checkAnswer(key []byte, resp *http.Response, requestSig string, answer []byte) error {
	switch sigs := resp.Header.Values(SignatureHeader); {
	case len(sigs) == 0:
		return fmt.Errorf("status %d: the answer is not signed", resp.StatusCode)
	case len(sigs) > 1 || !Verify(key, AnswerMessage(resp.StatusCode, requestSig, answer), sigs[0]):
		return fmt.Errorf("status %d: the answer's signature does not match it", resp.StatusCode)
	}
	return nil
}

// readAnswer turns a status and a body into an answer or one of the three kinds of error:
// 200 with a balance is an answer; a 4xx a refusal (insufficient funds by its code);
// anything else no answer.
func readAnswer(status int, body []byte) (Answer, error) {
	switch {
	case status == http.StatusOK:
		var a struct {
			Balance *baccarat.Money `json:"balance"`
		}
		if err := json.Unmarshal(body, &a); err != nil || a.Balance == nil {
			return Answer{}, &OutcomeUnknownError{Err: fmt.Errorf("200 without a balance: %q", baccarat.Truncate(string(body), 200))}
		}
		return Answer{Balance: *a.Balance}, nil
	case status >= 400 && status < 500:
		var e ErrorAnswer
		if err := json.Unmarshal(body, &e); err != nil {
			e = ErrorAnswer{Message: baccarat.Truncate(strings.TrimSpace(string(body)), 200)}
		}
		if e.Error == CodeInsufficientFunds {
			ie := &InsufficientFundsError{}
			if e.Balance != nil {
				ie.Balance = *e.Balance
			}
			return Answer{}, ie
		}
		return Answer{}, &RefusedError{Status: status, Code: e.Error, Message: e.Message}
	}
	var e ErrorAnswer
	_ = json.Unmarshal(body, &e)
	msg := e.Message
	if msg == "" {
		msg = baccarat.Truncate(strings.TrimSpace(string(body)), 200)
	}
	return Answer{}, &OutcomeUnknownError{Err: fmt.Errorf("status %d: %s", status, msg)}
}
