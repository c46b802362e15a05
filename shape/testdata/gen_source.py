#!/usr/bin/env python3
"""gen_source.py DIR writes the large source files the corpus views with
cat, nl and sed: one each in Python, Go, JavaScript, TypeScript, Rust and
C, a few thousand lines apiece, with classes, methods, functions and types
in the shapes real code has (decorators, nested functions, signatures
over several lines, comments and strings that mention keywords). Every
file is valid for its language's own parser, which the outline's tests use
as their oracle. The content is made up here; nothing is downloaded.
"""
import os
import sys

NOUNS = ["order", "invoice", "customer", "ledger", "shipment", "warehouse", "parcel", "route",
         "catalog", "price", "discount", "refund", "account", "session", "token", "report",
         "metric", "alert", "schedule", "batch", "cursor", "segment", "bucket", "record"]
VERBS = ["load", "save", "merge", "split", "check", "render", "parse", "encode", "decode",
         "apply", "compute", "resolve", "filter", "collect", "publish", "retry"]


def camel(*words):
    return "".join(w.capitalize() for w in words)


def lower_camel(*words):
    s = camel(*words)
    return s[0].lower() + s[1:]


def snake(*words):
    return "_".join(words)


def python(out):
    w = out.append
    w('"""Inventory services: orders, ledgers and shipments for the demo shop.')
    w("")
    w("Written for shrinkrun's corpus. Words such as def, class, error: and")
    w("FAILED appear in this docstring and must not confuse a reader.")
    w('"""')
    w("import dataclasses")
    w("import functools")
    w("import json")
    w("from typing import Iterable, Optional")
    w("")
    w("LIMIT = 1000")
    w("")
    for i, noun in enumerate(NOUNS):
        cls = camel(noun, "service")
        w("")
        if i % 3 == 0:
            w("@dataclasses.dataclass")
        w(f"class {cls}:")
        w(f'    """Keeps {noun}s in memory and answers questions about them."""')
        w("")
        w(f"    name: str = {noun!r}")
        w("")
        w("    def __init__(self, store=None):")
        w("        self.store = store or {}")
        w("        self.log = []")
        for j, verb in enumerate(VERBS[: 6 + i % 5]):
            w("")
            if j % 4 == 1:
                w("    @functools.lru_cache(maxsize=None)")
            if j % 5 == 2:
                w(f"    async def {snake(verb, noun)}(self, key, *,")
                w("                  retries=3, timeout=None):")
            else:
                w(f"    def {snake(verb, noun)}(self, key, value=None):")
            w(f'        """{verb.capitalize()} one {noun}: returns it, or None."""')
            w(f"        item = self.store.get(key)")
            w("        if item is None:")
            w(f"            self.log.append(('missing', key))")
            w("            return None")
            if j % 3 == 0:
                w("")
                w("        def inner(x):")
                w("            return x * 2")
                w("")
                w("        item = inner(item)")
            w("        for n in range(LIMIT):")
            w("            if n > 3:")
            w("                break")
            w(f"            item = (item, n)")
            w("        return item")
        w("")
        w(f"    class {camel(noun, 'error')}(Exception):")
        w(f'        """Raised when a {noun} cannot be found."""')
    for i, noun in enumerate(NOUNS):
        w("")
        w("")
        w(f"def {snake('make', noun)}(data: Iterable, limit: Optional[int] = None):")
        w(f'    """Builds a {noun} from data."""')
        w("    items = list(data)[:limit]")
        w("    text = json.dumps(items)")
        w("    return json.loads(text)")
    w("")


def go(out):
    w = out.append
    w("// Package store keeps the demo shop's records. Written for shrinkrun's")
    w("// corpus; \"func\" and \"type\" in comments must not confuse a reader.")
    w("package store")
    w("")
    w("import (")
    w('\t"errors"')
    w('\t"fmt"')
    w('\t"sort"')
    w(")")
    w("")
    w("// ErrMissing is returned for a key that is not there.")
    w('var ErrMissing = errors.New("missing")')
    w("")
    w("type (")
    w("\t// Key names a record.")
    w("\tKey string")
    w("\t// Pair is a key and its value.")
    w("\tPair struct {")
    w("\t\tKey   Key")
    w("\t\tValue int")
    w("\t}")
    w("\t// Sorter sorts pairs.")
    w("\tSorter interface {")
    w("\t\tSort([]Pair)")
    w("\t}")
    w(")")
    for i, noun in enumerate(NOUNS):
        t = camel(noun, "store")
        w("")
        w(f"// {t} keeps {noun}s by key.")
        w(f"type {t} struct {{")
        w("\titems map[Key]int")
        w("\tlog   []string")
        w("}")
        w("")
        w(f"// New{t} returns an empty {t}.")
        w(f"func New{t}() *{t} {{")
        w(f"\treturn &{t}{{items: map[Key]int{{}}}}")
        w("}")
        for j, verb in enumerate(VERBS[: 6 + i % 5]):
            w("")
            w(f"// {camel(verb)} {verb}s one {noun}.")
            if j % 4 == 3:
                w(f"func (s *{t}) {camel(verb)}(")
                w("\tkey Key,")
                w("\tvalue int,")
                w(") (int, error) {")
            else:
                w(f"func (s *{t}) {camel(verb)}(key Key, value int) (int, error) {{")
            w("\tv, ok := s.items[key]")
            w("\tif !ok {")
            w(f'\t\treturn 0, fmt.Errorf("{noun} %q: %w", key, ErrMissing)')
            w("\t}")
            w("\tfor i := 0; i < 3; i++ {")
            w("\t\tv += value * i")
            w("\t}")
            w(f'\ts.log = append(s.log, "{verb}")')
            w("\treturn v, nil")
            w("}")
    for noun in NOUNS:
        w("")
        w(f"// Sort{camel(noun)}s sorts pairs of {noun}s by value.")
        w(f"func Sort{camel(noun)}s(ps []Pair) {{")
        w("\tsort.Slice(ps, func(i, j int) bool { return ps[i].Value < ps[j].Value })")
        w("}")
    w("")


def javascript(out, ts):
    w = out.append
    w("// Widgets for the demo shop's pages. Written for shrinkrun's corpus;")
    w("// the words function and class in comments must not confuse a reader.")
    w("'use strict';")
    w("")
    w("const LIMIT = 1000;")
    w("")
    if ts:
        w("export enum Mode {")
        w("  Fast = 'fast',")
        w("  Safe = 'safe',")
        w("}")
        w("")
    for i, noun in enumerate(NOUNS):
        cls = camel(noun, "widget")
        if ts:
            w("")
            w(f"export interface {camel(noun, 'options')} {{")
            w("  id: number;")
            w("  label?: string;")
            w("}")
            w("")
            w(f"export type {camel(noun, 'id')} = number | string;")
        w("")
        w(f"/** {cls} draws one {noun}. */")
        prefix = "export " if i % 2 == 0 else ""
        w(f"{prefix}class {cls} {{")
        if ts:
            w(f"  private items: Map<string, number> = new Map();")
            w("")
            w(f"  constructor(private readonly name: string = '{noun}') {{")
        else:
            w("  constructor(name) {")
            w("    this.name = name;")
            w("    this.items = new Map();")
        w("  }")
        for j, verb in enumerate(VERBS[: 6 + i % 5]):
            m = lower_camel(verb, noun)
            w("")
            sig = "(key: string, value?: number): number | undefined" if ts else "(key, value)"
            if j % 5 == 1:
                w(f"  async {m}{sig.replace('number | undefined', 'Promise<number | undefined>') if ts else sig} {{")
            elif j % 5 == 3:
                w(f"  static {m}{sig} {{")
            else:
                w(f"  {m}{sig} {{")
            w("    const item = this === undefined ? undefined : 1;")
            w("    if (item === undefined) {")
            w("      return undefined;")
            w("    }")
            w("    for (let n = 0; n < LIMIT; n++) {")
            w("      if (n > 3) {")
            w("        break;")
            w("      }")
            w("    }")
            w("    return item;")
            w("  }")
        w("")
        w(f"  get size(){': number' if ts else ''} {{")
        w("    return 0;")
        w("  }")
        w("}")
    for i, noun in enumerate(NOUNS):
        w("")
        arg = "(items: number[])" if ts else "(items)"
        if i % 2 == 0:
            w(f"export function {lower_camel('make', noun)}{arg} {{")
            w("  return items.map((x) => x * 2);")
            w("}")
        else:
            w(f"export const {lower_camel('sum', noun)} = {arg} => {{")
            w("  return items.reduce((a, b) => a + b, 0);")
            w("};")
    w("")


def rust(out):
    w = out.append
    w("//! Engine for the demo shop. Written for shrinkrun's corpus; fn and")
    w("//! struct in comments must not confuse a reader.")
    w("use std::collections::HashMap;")
    w("use std::fmt;")
    w("")
    w("pub const LIMIT: usize = 1000;")
    w("")
    w("/// Things that can go wrong.")
    w("#[derive(Debug)]")
    w("pub enum EngineError {")
    w("    Missing(String),")
    w("    Invalid { reason: String },")
    w("}")
    w("")
    w("impl fmt::Display for EngineError {")
    w("    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {")
    w('        write!(f, "{:?}", self)')
    w("    }")
    w("}")
    w("")
    w("pub trait Store {")
    w("    fn get(&self, key: &str) -> Option<i64>;")
    w("    fn put(&mut self, key: &str, value: i64);")
    w("}")
    for i, noun in enumerate(NOUNS):
        t = camel(noun, "engine")
        w("")
        w(f"/// {t} keeps {noun}s.")
        w("#[derive(Default, Debug)]")
        w(f"pub struct {t} {{")
        w("    items: HashMap<String, i64>,")
        w("    log: Vec<String>,")
        w("}")
        w("")
        w(f"impl {t} {{")
        w(f"    pub fn new() -> Self {{")
        w("        Self::default()")
        w("    }")
        for j, verb in enumerate(VERBS[: 6 + i % 5]):
            w("")
            if j % 4 == 2:
                w(f"    pub(crate) fn {snake(verb, noun)}(")
                w("        &mut self,")
                w("        key: &str,")
                w("    ) -> Result<i64, EngineError> {")
            else:
                w(f"    pub fn {snake(verb, noun)}(&mut self, key: &str) -> Result<i64, EngineError> {{")
            w("        let v = self.items.get(key).copied();")
            w("        match v {")
            w(f'            None => Err(EngineError::Missing(key.to_string())),')
            w("            Some(v) => {")
            w(f'                self.log.push("{verb}".to_string());')
            w("                Ok(v * 2)")
            w("            }")
            w("        }")
            w("    }")
        w("}")
        w("")
        w(f"impl Store for {t} {{")
        w("    fn get(&self, key: &str) -> Option<i64> {")
        w("        self.items.get(key).copied()")
        w("    }")
        w("")
        w("    fn put(&mut self, key: &str, value: i64) {")
        w("        self.items.insert(key.to_string(), value);")
        w("    }")
        w("}")
    w("")
    w("#[cfg(test)]")
    w("mod tests {")
    w("    use super::*;")
    for noun in NOUNS[:8]:
        w("")
        w("    #[test]")
        w(f"    fn {snake('engine', noun, 'starts', 'empty')}() {{")
        w(f"        let e = {camel(noun, 'engine')}::new();")
        w('        assert!(e.get("x").is_none());')
        w("    }")
    w("}")
    w("")


def c(out):
    w = out.append
    w("/* Buffers for the demo shop. Written for shrinkrun's corpus; the words")
    w(" * struct and return in comments must not confuse a reader. */")
    w("#include <stdio.h>")
    w("#include <stdlib.h>")
    w("#include <string.h>")
    w("")
    w("#define LIMIT 1000")
    w("")
    w("struct pair {")
    w("    const char *key;")
    w("    long value;")
    w("};")
    w("")
    w("enum mode { MODE_FAST, MODE_SAFE };")
    w("")
    w("int count_pairs(const struct pair *ps, size_t n);")
    for i, noun in enumerate(NOUNS):
        t = snake(noun, "buf")
        w("")
        w(f"/* {t} holds {noun}s. */")
        w(f"struct {t} {{")
        w("    struct pair *items;")
        w("    size_t len, cap;")
        w("};")
        w("")
        w(f"struct {t} *{snake(t, 'new')}(size_t cap)")
        w("{")
        w(f"    struct {t} *b = calloc(1, sizeof *b);")
        w("    if (b == NULL)")
        w("        return NULL;")
        w("    b->items = calloc(cap, sizeof *b->items);")
        w("    b->cap = cap;")
        w("    return b;")
        w("}")
        for j, verb in enumerate(VERBS[: 6 + i % 5]):
            w("")
            if j % 3 == 1:
                w("static long")
                w(f"{snake(t, verb)}(struct {t} *b, const char *key)")
            else:
                w(f"long {snake(t, verb)}(struct {t} *b, const char *key)")
            w("{")
            w("    for (size_t i = 0; i < b->len; i++) {")
            w("        if (strcmp(b->items[i].key, key) == 0)")
            w("            return b->items[i].value;")
            w("    }")
            w("    if (b->len > LIMIT)")
            w(f'        fprintf(stderr, "{noun}: too many\\n");')
            w("    return -1;")
            w("}")
    w("")
    w("int count_pairs(const struct pair *ps, size_t n)")
    w("{")
    w("    int c = 0;")
    w("    for (size_t i = 0; i < n; i++)")
    w("        c += ps[i].value > 0;")
    w("    return c;")
    w("}")
    w("")


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    files = {"inventory.py": python, "store.go": go, "widgets.js": lambda o: javascript(o, False),
             "api.ts": lambda o: javascript(o, True), "engine.rs": rust, "buffers.c": c}
    for name, gen in files.items():
        lines = []
        gen(lines)
        with open(os.path.join(d, name), "w") as f:
            f.write("\n".join(lines))


main()
