//! Every path a file of the crate writes, read as the compiler reads it (with `syn`), and the
//! files of the crate as the compiler finds them: from `lib.rs`, each module declared with
//! `mod name;` (not under `#[cfg(test)]`) in `name.rs` or `name/mod.rs`.
//!
//! A path is seen wherever it stands: in a `use` tree (its nested groups flattened, whatever
//! lines rustfmt wrapped them over), an expression, a type, a pattern, a macro's body (read as
//! tokens) or a string of `#[serde(…)]` naming a function. Items under `#[cfg(test)]` (or
//! `#[cfg(all(test, …))]`) are skipped wherever they stand, and nothing else is.

use proc_macro2::{Spacing, TokenStream, TokenTree};
use std::path::Path;
use syn::visit::{self, Visit};
use syn::{Attribute, Meta, UseTree};

/// A path as written where it stands, a `use` group's prefix included.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The module it stands in, from the crate's root (an inline `mod` included).
    pub module: Vec<String>,
    /// Its segments (`crate`, `super`, `self` and `$crate` as such), each with its line.
    pub segments: Vec<(String, usize)>,
    /// The name a `use` makes visible (`*` for a glob); `None` outside `use`.
    pub imported_as: Option<String>,
}

impl Written {
    /// The path from the crate's root, and how many of its written segments led there (`crate`,
    /// `super::super`…); `None` for a path that is not the crate's or is relative to its module
    /// (in a module other than the root, a relative path names the module's own items).
    pub fn named_from_root(&self) -> Option<(Vec<String>, usize)> {
        let names: Vec<&str> = self.segments.iter().map(|(s, _)| s.as_str()).collect();
        let (prefix, base): (usize, Vec<String>) = match names.first()? {
            &"crate" | &"$crate" => (1, Vec::new()),
            &"self" => (1, self.module.clone()),
            &"super" => {
                let ups = names.iter().take_while(|s| **s == "super").count();
                let kept = self.module.len().checked_sub(ups)?;
                (ups, self.module[..kept].to_vec())
            }
            _ if self.module.is_empty() => (0, Vec::new()),
            _ => return None,
        };
        let mut path = base;
        path.extend(names[prefix..].iter().map(|s| (*s).to_owned()));
        Some((path, prefix))
    }

    /// The line of the segment at `index` (the last one past the end).
    pub fn line(&self, index: usize) -> usize {
        self.segments.get(index).or(self.segments.last()).map_or(0, |(_, line)| *line)
    }

    /// The segments as text: `std::fs::write`.
    pub fn text(&self) -> String {
        self.segments.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join("::")
    }
}

/// What one file says: its paths and the modules it declares in files of their own.
#[derive(Debug, Default)]
pub struct Reading {
    pub written: Vec<Written>,
    /// Modules declared with `mod name;`, from the crate's root, with the line.
    pub declared: Vec<(Vec<String>, usize)>,
    /// What the reading cannot follow (a `#[path]` attribute), with the line.
    pub unfollowed: Vec<(String, usize)>,
}

/// The paths of `source`, a file of the module `module` (from the crate's root).
pub fn read(module: &[String], source: &str) -> syn::Result<Reading> {
    let file = syn::parse_file(source)?;
    let mut reader = Reader { module: module.to_vec(), reading: Reading::default() };
    reader.visit_file(&file);
    Ok(reader.reading)
}

/// A file of the crate: its path from `src/`, its module and what it says.
pub struct SourceFile {
    pub relative: String,
    pub module: Vec<String>,
    pub reading: Reading,
}

/// The crate under `src` as the compiler finds its files, from `lib.rs`; what cannot be read
/// (a file missing, not Rust, a `#[path]`) is an error naming the file and line.
pub fn crate_files(src: &Path) -> Result<Vec<SourceFile>, String> {
    let mut files = Vec::new();
    let mut waiting = vec![(Vec::<String>::new(), "lib.rs".to_owned())];
    while let Some((module, relative)) = waiting.pop() {
        let source = std::fs::read_to_string(src.join(&relative)).map_err(|e| format!("{relative}: {e}"))?;
        let reading = read(&module, &source)
            .map_err(|e| format!("{relative}:{}: not Rust the layers test can read: {e}", e.span().start().line))?;
        if let Some((what, line)) = reading.unfollowed.first() {
            return Err(format!("{relative}:{line}: {what} is not followed by the layers test"));
        }
        for (child, line) in &reading.declared {
            let stem = child.join("/");
            let found: Vec<String> = [format!("{stem}.rs"), format!("{stem}/mod.rs")]
                .into_iter()
                .filter(|f| src.join(f).is_file())
                .collect();
            match found.as_slice() {
                [one] => waiting.push((child.clone(), one.clone())),
                _ => return Err(format!("{relative}:{line}: module {stem} is in no single file ({found:?})")),
            }
        }
        files.push(SourceFile { relative, module, reading });
    }
    files.sort_by(|a, b| a.relative.cmp(&b.relative));
    Ok(files)
}

/// Whether `attrs` hold `#[cfg(test)]` or `#[cfg(all(test, …))]`: code compiled for tests only.
fn test_only(attrs: &[Attribute]) -> bool {
    fn only_in_tests(meta: &Meta) -> bool {
        match meta {
            Meta::Path(path) => path.is_ident("test"),
            Meta::List(list) if list.path.is_ident("all") => list
                .parse_args_with(syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated)
                .is_ok_and(|all| all.iter().any(only_in_tests)),
            _ => false,
        }
    }
    attrs.iter().filter(|a| a.path().is_ident("cfg")).any(|a| a.parse_args::<Meta>().is_ok_and(|m| only_in_tests(&m)))
}

fn line_of(span: proc_macro2::Span) -> usize {
    span.start().line
}

struct Reader {
    module: Vec<String>,
    reading: Reading,
}

impl Reader {
    fn note(&mut self, segments: Vec<(String, usize)>, imported_as: Option<String>) {
        if !segments.is_empty() {
            self.reading.written.push(Written { module: self.module.clone(), segments, imported_as });
        }
    }

    /// Each leaf of a `use` tree as the whole path it imports.
    fn use_tree(&mut self, prefix: &mut Vec<(String, usize)>, tree: &UseTree) {
        match tree {
            UseTree::Path(p) => {
                prefix.push((p.ident.to_string(), line_of(p.ident.span())));
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            UseTree::Name(n) if n.ident == "self" => {
                let visible = prefix.last().map(|(s, _)| s.clone());
                self.note(prefix.clone(), visible);
            }
            UseTree::Name(n) => {
                let path = [prefix.as_slice(), &[(n.ident.to_string(), line_of(n.ident.span()))]].concat();
                self.note(path, Some(n.ident.to_string()));
            }
            UseTree::Rename(r) => {
                let path = [prefix.as_slice(), &[(r.ident.to_string(), line_of(r.ident.span()))]].concat();
                self.note(path, Some(r.rename.to_string()));
            }
            UseTree::Glob(g) => {
                let path = [prefix.as_slice(), &[("*".to_owned(), line_of(g.star_token.span))]].concat();
                self.note(path, Some("*".to_owned()));
            }
            UseTree::Group(g) => g.items.iter().for_each(|item| self.use_tree(prefix, item)),
        }
    }

    /// The paths in a macro's body or an attribute's arguments: runs of `a::b::c` in its tokens.
    fn tokens(&mut self, tokens: &TokenStream) {
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        let mut at = 0;
        while at < trees.len() {
            if let TokenTree::Group(group) = &trees[at] {
                self.tokens(&group.stream());
                at += 1;
                continue;
            }
            let (path, next) = path_at(&trees, at);
            if path.len() > 1 {
                self.note(path, None);
            }
            at = next.max(at + 1);
        }
    }

    /// `#[serde(with = "…", deserialize_with = "…", …)]` names functions in strings.
    fn serde_strings(&mut self, tokens: &TokenStream) {
        for tree in tokens.clone() {
            match tree {
                TokenTree::Group(group) => self.serde_strings(&group.stream()),
                TokenTree::Literal(literal) => {
                    let Ok(text) = syn::parse_str::<syn::LitStr>(&literal.to_string()) else { continue };
                    let Ok(path) = syn::parse_str::<syn::Path>(&text.value()) else { continue };
                    let line = line_of(literal.span());
                    self.note(path.segments.iter().map(|s| (s.ident.to_string(), line)).collect(), None);
                }
                _ => {}
            }
        }
    }
}

/// The path that starts at `trees[at]` (`$crate` as one segment) and where it ends.
fn path_at(trees: &[TokenTree], at: usize) -> (Vec<(String, usize)>, usize) {
    let mut segments = Vec::new();
    let mut i = at;
    loop {
        let segment = match (trees.get(i), trees.get(i + 1)) {
            (Some(TokenTree::Punct(p)), Some(TokenTree::Ident(id))) if p.as_char() == '$' && id == "crate" => {
                i += 2;
                ("$crate".to_owned(), line_of(id.span()))
            }
            (Some(TokenTree::Ident(id)), _) => {
                i += 1;
                (id.to_string(), line_of(id.span()))
            }
            _ => break,
        };
        segments.push(segment);
        let colons = matches!((trees.get(i), trees.get(i + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':');
        if !colons {
            break;
        }
        i += 2;
    }
    (segments, i)
}

/// Visits a node unless it is compiled for tests only.
macro_rules! unless_test {
    ($($visit:ident: $node:ty),* $(,)?) => {
        $(fn $visit(&mut self, node: &'ast $node) {
            if !test_only(&node.attrs) {
                visit::$visit(self, node);
            }
        })*
    };
}

impl<'ast> Visit<'ast> for Reader {
    unless_test!(
        visit_item_const: syn::ItemConst, visit_item_enum: syn::ItemEnum, visit_item_fn: syn::ItemFn,
        visit_item_foreign_mod: syn::ItemForeignMod, visit_item_impl: syn::ItemImpl,
        visit_item_macro: syn::ItemMacro, visit_item_static: syn::ItemStatic, visit_item_struct: syn::ItemStruct,
        visit_item_trait: syn::ItemTrait, visit_item_trait_alias: syn::ItemTraitAlias,
        visit_item_type: syn::ItemType, visit_item_union: syn::ItemUnion,
        visit_impl_item_const: syn::ImplItemConst, visit_impl_item_fn: syn::ImplItemFn,
        visit_impl_item_macro: syn::ImplItemMacro, visit_impl_item_type: syn::ImplItemType,
        visit_trait_item_const: syn::TraitItemConst, visit_trait_item_fn: syn::TraitItemFn,
        visit_trait_item_macro: syn::TraitItemMacro, visit_trait_item_type: syn::TraitItemType,
        visit_foreign_item_fn: syn::ForeignItemFn, visit_local: syn::Local, visit_stmt_macro: syn::StmtMacro,
        visit_arm: syn::Arm, visit_field: syn::Field, visit_variant: syn::Variant, visit_field_value: syn::FieldValue,
        visit_expr_block: syn::ExprBlock, visit_expr_call: syn::ExprCall, visit_expr_method_call: syn::ExprMethodCall,
        visit_expr_macro: syn::ExprMacro,
    );

    fn visit_item_mod(&mut self, node: &'ast syn::ItemMod) {
        if test_only(&node.attrs) {
            return;
        }
        let line = line_of(node.ident.span());
        if node.attrs.iter().any(|a| a.path().is_ident("path")) {
            self.reading.unfollowed.push((format!("the #[path] of module {}", node.ident), line));
        }
        self.module.push(node.ident.to_string());
        match &node.content {
            Some(_) => visit::visit_item_mod(self, node),
            None => self.reading.declared.push((self.module.clone(), line)),
        }
        self.module.pop();
    }

    fn visit_item_use(&mut self, node: &'ast syn::ItemUse) {
        if !test_only(&node.attrs) {
            self.use_tree(&mut Vec::new(), &node.tree);
        }
    }

    fn visit_path(&mut self, node: &'ast syn::Path) {
        if node.leading_colon.is_none() {
            let segments = node.segments.iter().map(|s| (s.ident.to_string(), line_of(s.ident.span()))).collect();
            self.note(segments, None);
        }
        visit::visit_path(self, node);
    }

    fn visit_meta_list(&mut self, node: &'ast syn::MetaList) {
        if node.path.is_ident("serde") {
            self.serde_strings(&node.tokens);
        }
        visit::visit_meta_list(self, node);
    }

    fn visit_token_stream(&mut self, tokens: &'ast TokenStream) {
        self.tokens(tokens);
    }
}
