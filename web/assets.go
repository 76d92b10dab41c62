package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The static files as the server sends them. The embedded files are prepared once per
// process, when the first Server is made, never per request:
//
//   - every file is served at /static/<file> (revalidated: Cache-Control no-cache with an
//     ETag) and at a content-hashed URL, /static/<name>.<hash>.<ext>, cached for a year
//     (immutable): a new build of a file is a new URL;
//   - each page's <script> tags (one after another at the end of the body) become one
//     bundle of those files in the page's order, and its stylesheet links one bundle, served
//     at /static/bundle.<hash>.js and .css: a page view is one HTML, one CSS and one JS;
//   - the pages, the stylesheets and the scripts have their quoted /static/<file> URLs
//     rewritten to the hashed ones (the pages are served no-cache with an ETag, so a deploy
//     is seen on the next view);
//   - each is gzipped once, kept where that saves a tenth or more.
//
// The scripts are plain scripts, each 'use strict' at its top and each one expression
// (an IIFE, or Bac.ready.then(...)) with no top-level declarations, so one after another in
// one script they keep their order and meaning; a ";" line between two stops one file's
// last expression from running into the next (assets_test.go checks both of the files).

// asset is one file as it is served.
type asset struct {
	body      []byte
	gz        []byte // body gzipped; nil where that would not save a tenth
	ctype     string // Content-Type
	hash      string // of body: the ETag is "hash", or "hash-gz" for gz
	immutable bool   // the URL names the content: cached for a year
}

// assetSet is every file under /static/, by its path there.
type assetSet struct {
	files  map[string]*asset // "app.js", "app.<hash>.js", "bundle.<hash>.js", "table.html"
	hashed map[string]string // a file's content-hashed URL: "app.js" → "/static/app.<hash>.js"
}

// staticFiles are the embedded files under static/, prepared. Each Server's routes ask for
// them, so the first server pays (some tens of milliseconds), not its first visitor. An
// embedded page that cannot be prepared is a fault of the build: the server does not start.
var staticFiles = sync.OnceValue(func() *assetSet {
	sub, err := fs.Sub(assets, "static")
	if err == nil {
		var set *assetSet
		if set, err = buildAssets(sub); err == nil {
			return set
		}
	}
	panic("web: preparing the embedded static files: " + err.Error())
})

// stage orders the files: a file's URLs are rewritten only to those of earlier stages
// (a stylesheet may name an image, a script a stylesheet, a page any of them), so that
// each hash is of the bytes served. Other files (i18n JSON, images, PAGES.md) are kept as
// they are.
func stage(name string) int {
	switch path.Ext(name) {
	case ".css":
		return 1
	case ".js":
		return 2
	case ".html":
		return 3
	}
	return 0
}

// buildAssets prepares every file of fsys (the static/ directory).
func buildAssets(fsys fs.FS) (*assetSet, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(names, func(a, b string) int { return stage(a) - stage(b) })
	set := &assetSet{files: map[string]*asset{}, hashed: map[string]string{}}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		switch stage(name) {
		case 0:
			set.add(name, b)
		case 1, 2:
			set.add(name, set.rewrite(b))
		case 3:
			if b, err = set.page(b); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			set.files[name] = newAsset(name, b, false)
		}
	}
	return set, nil
}

// add serves b at name, revalidated, and at its content-hashed URL, cached for a year.
func (set *assetSet) add(name string, b []byte) {
	a := newAsset(name, b, false)
	set.files[name] = a
	h := hashedName(name, a.hash)
	set.files[h] = &asset{body: a.body, gz: a.gz, ctype: a.ctype, hash: a.hash, immutable: true}
	set.hashed[name] = "/static/" + h
}

func newAsset(name string, b []byte, immutable bool) *asset {
	sum := sha256.Sum256(b)
	return &asset{body: b, gz: gzipped(b), ctype: contentType(name), hash: hex.EncodeToString(sum[:6]), immutable: immutable}
}

// hashedName puts the hash before the extension: "i18n/en.json" → "i18n/en.<hash>.json".
func hashedName(name, hash string) string {
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hash + ext
}

// gzipped is b at the best compression, or nil when that saves less than a tenth (an
// image, a tiny file): the identity is sent then.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	if buf.Len() > len(b)-len(b)/10 {
		return nil
	}
	return buf.Bytes()
}

// contentTypes are ours, written out rather than read from the system's MIME table, which
// differs between machines (.js as application/javascript or text/javascript).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".md":   "text/markdown; charset=utf-8",
	".png":  "image/png",
	".webp": "image/webp",
	".ico":  "image/x-icon",
}

func contentType(name string) string {
	if ct, ok := contentTypes[path.Ext(name)]; ok {
		return ct
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// staticRef is a quoted /static/ URL: "/static/x", '/static/x' or url(/static/x).
var staticRef = regexp.MustCompile(`(["'(])/static/([A-Za-z0-9][A-Za-z0-9._/-]*)(["')])`)

// rewrite replaces each quoted /static/<file> of a file already prepared with its
// content-hashed URL; any other (a file of a later stage, a URL built in code, such as
// i18n.js's) is left as it is, and still served.
func (set *assetSet) rewrite(b []byte) []byte {
	pairs := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}
	return staticRef.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := staticRef.FindSubmatch(m)
		url, ok := set.hashed[string(sub[2])]
		if !ok || pairs[sub[1][0]] != sub[3][0] {
			return m
		}
		return slices.Concat(sub[1], []byte(url), sub[3])
	})
}

// The tags a page loads its scripts and styles with, as our pages write them.
var (
	scriptTag = regexp.MustCompile(`<script src="/static/([A-Za-z0-9._/-]+\.js)"></script>`)
	styleTag  = regexp.MustCompile(`<link rel="stylesheet" href="/static/([A-Za-z0-9._/-]+\.css)">`)
)

// page is a page loading one bundle of its scripts and one of its styles, its other
// /static/ URLs hashed.
func (set *assetSet) page(b []byte) ([]byte, error) {
	b, err := set.join(b, scriptTag, `<script src="%s"></script>`)
	if err != nil {
		return nil, err
	}
	if b, err = set.join(b, styleTag, `<link rel="stylesheet" href="%s">`); err != nil {
		return nil, err
	}
	return set.rewrite(b), nil
}

// join replaces a page's run of tags with one tag (format) loading the bundle of their
// files. The tags must follow one another with nothing but white space between: joined,
// tags split by other markup (an inline script, an element a script looks for) would run
// at another moment.
func (set *assetSet) join(b []byte, tag *regexp.Regexp, format string) ([]byte, error) {
	locs := tag.FindAllSubmatchIndex(b, -1)
	if len(locs) == 0 {
		return b, nil
	}
	var names []string
	for i, l := range locs {
		if i > 0 && len(bytes.TrimSpace(b[locs[i-1][1]:l[0]])) > 0 {
			return nil, fmt.Errorf("%q is not right after the tag before it: only a run of tags is bundled", b[l[0]:l[1]])
		}
		names = append(names, string(b[l[2]:l[3]]))
	}
	url, err := set.bundle(names)
	if err != nil {
		return nil, err
	}
	tagged := fmt.Appendf(nil, format, url)
	return slices.Concat(b[:locs[0][0]], tagged, b[locs[len(locs)-1][1]:]), nil
}

// bundle joins files (all .js or all .css, prepared already) in their order, each after a
// comment naming it, and a ";" line between scripts; the answer is the bundle's URL. Pages
// with the same files share one bundle.
func (set *assetSet) bundle(names []string) (string, error) {
	ext := path.Ext(names[0])
	var buf bytes.Buffer
	for i, name := range names {
		a, ok := set.files[name]
		if !ok || path.Ext(name) != ext {
			return "", fmt.Errorf("bundling %s: no such %s file", name, ext)
		}
		if i > 0 && ext == ".js" {
			buf.WriteString("\n;\n")
		} else if i > 0 {
			buf.WriteString("\n")
		}
		fmt.Fprintf(&buf, "/* %s */\n", name)
		buf.Write(a.body)
	}
	a := newAsset(ext, buf.Bytes(), true)
	name := "bundle." + a.hash + ext
	if _, ok := set.files[name]; !ok {
		set.files[name] = a
	}
	return "/static/" + name, nil
}
