// The SIMT path's uniform variables (collector_simt.h; docs/ENGINE.md, "The SIMT engine"): a
// thread's variable that every running lane of a warp holds at the same value (a loop counter, a
// tile's base, a stride) is kept once for the warp, not 32 times, and a statement that reads only
// such values and writes only such variables (`++k`, `k < TILE`, `t += 32`) runs once for the
// warp, not once per lane. A scalar compiler calls these values uniform (ISPC's `uniform`, the
// GPU's uniform registers).
//
// A variable is uniform where every write to it is a uniform statement (no memory access, no call,
// nothing a lane holds on its own: threadIdx, a variable that is not uniform) reached under
// uniform control since its declaration: each `if` and loop between the declaration and the write
// tests a uniform condition, and no such loop lets lanes leave it apart (a `break` or `continue`
// under a condition that is not uniform). Lanes that left the kernel (a divergent `return`) or the
// declaration's own scope no longer read it, so they do not count. Its address is never taken, it
// is no reference's, and it is an integer, an enumeration, a bool or a pointer (a float's
// operations are counted per lane). The set is the largest that satisfies these rules: every
// candidate at first, then those that break one removed until none does (induction over the
// execution: each write computes the same value in every lane from values that are the same).
#include "collector_simt.h"

namespace ws::rewrite_internal {

namespace {

bool UniformType(QualType t) {
  if (t.isNull() || t->isDependentType() || t.isVolatileQualified() || t->isReferenceType())
    return false;
  return t->isIntegralOrEnumerationType() || t->isPointerType();
}

const VarDecl* Target(const Expr* e) {
  const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParens());
  return d != nullptr ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
}

// `(::ws::prog::Builtins()[i])`, the shim's blockIdx (1), blockDim (2) or gridDim (3): the
// same in every lane of a warp (threadIdx, 0, is not).
bool BlockBuiltin(const ArraySubscriptExpr* a) {
  const auto* call = dyn_cast<CallExpr>(a->getBase()->IgnoreParenImpCasts());
  const auto* index = dyn_cast<IntegerLiteral>(a->getIdx()->IgnoreParenImpCasts());
  if (call == nullptr || index == nullptr || index->getValue() == 0) return false;
  const FunctionDecl* f = call->getDirectCallee();
  return f != nullptr && NameOf(f) == "Builtins" && InNamespace(f, "prog");
}

// The shim's blockIdx, blockDim and gridDim as clang reads them (variables of the CUDA headers'
// kind; the host compiler's macros read the running lane's, WS_SIMT_ONCE).
bool BlockBuiltin(const VarDecl* v) {
  if (v == nullptr || !v->hasGlobalStorage() || v->isLocalVarDeclOrParm() ||
      !v->getDeclContext()->isTranslationUnit())
    return false;
  const StringRef n = v->getName();
  return n == "blockIdx" || n == "blockDim" || n == "gridDim";
}

}  // namespace

// Is `e` (an expression, or a declaration's initializers) the same in every running lane, and
// does it write nothing but uniform variables? `writes`: may it write them at all.
bool Collector::SimtUniformExpr(const Stmt* e, const SimtKernel& k, bool writes) const {
  if (e == nullptr) return true;
  auto readable = [&](const VarDecl* v) {
    if (v == nullptr) return false;
    if (k.uniform.count(v) > 0) return true;
    if (k.lanes.count(v) > 0) return false;
    if (const auto* p = dyn_cast<ParmVarDecl>(v)) return !k.device && p->getDeclContext() == k.f;
    return v->isConstexpr() ||
           (v->getType().isConstQualified() && v->isUsableInConstantExpressions(ctx_));
  };
  if (const auto* d = dyn_cast<DeclStmt>(e)) {
    for (const Decl* x : d->decls()) {
      const auto* v = dyn_cast<VarDecl>(x);
      if (v == nullptr) {
        if (isa<TypedefNameDecl>(x) || isa<StaticAssertDecl>(x)) continue;
        return false;
      }
      if (!writes || k.uniform.count(v) == 0 || !SimtUniformExpr(v->getInit(), k, writes))
        return false;
    }
    return true;
  }
  if (isa<IntegerLiteral>(e) || isa<CharacterLiteral>(e) || isa<CXXBoolLiteralExpr>(e) ||
      isa<FloatingLiteral>(e) || isa<UnaryExprOrTypeTraitExpr>(e) || isa<CXXNullPtrLiteralExpr>(e))
    return true;
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {  // an enumerator, a constant, a block's index
    // (A template's value parameter, TILE_WIDTH, is a constant of each instantiation.)
    if (isa<EnumConstantDecl>(d->getDecl()) || isa<NonTypeTemplateParmDecl>(d->getDecl()))
      return true;
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    if (BlockBuiltin(v)) return true;
    return v != nullptr && k.uniform.count(v) == 0 && k.lanes.count(v) == 0 &&
           (v->isConstexpr() ||
            (v->getType().isConstQualified() && v->isUsableInConstantExpressions(ctx_)));
  }
  if (const auto* c = dyn_cast<ImplicitCastExpr>(e)) {
    if (c->getCastKind() == CK_LValueToRValue) {
      if (const auto* d = dyn_cast<DeclRefExpr>(c->getSubExpr()->IgnoreParens()))
        return readable(dyn_cast<VarDecl>(d->getDecl()));
    }
    return SimtUniformExpr(c->getSubExpr(), k, writes);
  }
  if (const auto* c = dyn_cast<ExplicitCastExpr>(e)) {
    if (isa<CXXFunctionalCastExpr>(c) || isa<CStyleCastExpr>(c) || isa<CXXStaticCastExpr>(c))
      return SimtUniformExpr(c->getSubExpr(), k, writes);
    return false;
  }
  if (const auto* p = dyn_cast<ParenExpr>(e)) return SimtUniformExpr(p->getSubExpr(), k, writes);
  if (const auto* t = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
    return SimtUniformExpr(t->getReplacement(), k, writes);
  if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e))
    return SimtUniformExpr(m->getSubExpr(), k, writes);
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->isIncrementDecrementOp()) return writes && k.uniform.count(Target(u->getSubExpr())) > 0;
    if (u->getOpcode() == UO_AddrOf || u->getOpcode() == UO_Deref) return false;
    return SimtUniformExpr(u->getSubExpr(), k, writes);
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    if (b->isAssignmentOp())
      return writes && k.uniform.count(Target(b->getLHS())) > 0 &&
             SimtUniformExpr(b->getRHS(), k, writes);
    return SimtUniformExpr(b->getLHS(), k, writes) && SimtUniformExpr(b->getRHS(), k, writes);
  }
  if (const auto* c = dyn_cast<AbstractConditionalOperator>(e)) {
    return SimtUniformExpr(c->getCond(), k, writes) &&
           SimtUniformExpr(c->getTrueExpr(), k, writes) &&
           SimtUniformExpr(c->getFalseExpr(), k, writes);
  }
  if (const auto* m = dyn_cast<MemberExpr>(e))  // a member of a value, not through a pointer
    return !m->isArrow() && isa<FieldDecl>(m->getMemberDecl()) &&
           SimtUniformExpr(m->getBase(), k, writes);
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) return BlockBuiltin(a);
  if (const auto* c = dyn_cast<CXXConstructExpr>(e)) {  // dim3(blockDim) and its copies
    const CXXRecordDecl* r = c->getConstructor()->getParent();
    if (r == nullptr || (r->getName() != "dim3" && r->getName() != "uint3")) return false;
    for (const Expr* a : c->arguments())
      if (!SimtUniformExpr(a, k, writes)) return false;
    return true;
  }
  return false;
}

// Is the statement [b, e) of leaf `of` run once for the warp: uniform, and nothing in its text the
// rewriter changed for a lane's sake (an access, a FLOP count, a hoisted call)?
bool Collector::SimtUniformLeaf(const Stmt* of, const SimtKernel& k) const {
  if (!SimtUniformExpr(of, k, true)) return false;
  const CharSourceRange r = FileRange(of->getSourceRange());
  if (r.isInvalid()) return false;
  const unsigned rb = Offset(r.getBegin()), re = Offset(r.getEnd());
  for (const Edit& x : edits_)  // (an instance marker, role 1, is left out of warp functions)
    if ((x.role == 2 || x.role == 3) && x.begin < re && x.end >= rb) return false;
  for (const Numbered& n : numbered_)
    if (n.a.begin < re && n.a.end > rb) return false;
  return true;
}

void Collector::SimtUniform(const Stmt* body, SimtKernel& k) {
  struct Write {
    const Stmt* leaf;
    std::vector<const Stmt*> controls;  // the ifs and loops around it, outermost first
  };
  struct Var {
    std::vector<const Stmt*> scope;  // the controls around its declaration
    std::vector<Write> writes;
    bool escapes = false;
  };
  std::map<const VarDecl*, Var> vars;
  for (const auto& [v, name] : k.lanes) {
    if (!UniformType(v->getType())) continue;
    if (isa<ParmVarDecl>(v) && (k.device || v->getDeclContext() != k.f)) continue;
    vars[v];
  }
  if (vars.empty()) return;
  // Loops in which lanes may part (a break or continue under an `if`), with those ifs' conditions.
  std::map<const Stmt*, std::vector<const Expr*>> parting;
  std::vector<const Stmt*> controls;
  // Every mention of a candidate in a leaf: a write (assignment, ++/--, declaration), a read, or
  // anything else (its address, a reference to it), which takes it out.
  auto scan = [&](const Stmt* leaf) {
    std::vector<std::pair<const Stmt*, bool>> todo = {{leaf, false}};  // (node, mention is fine)
    while (!todo.empty()) {
      auto [s, fine] = todo.back();
      todo.pop_back();
      if (const auto* d = dyn_cast<DeclRefExpr>(s)) {
        if (const auto* v = dyn_cast<VarDecl>(d->getDecl()); v != nullptr && vars.count(v) > 0) {
          if (!fine) vars[v].escapes = true;
        }
        continue;
      }
      if (const auto* ds = dyn_cast<DeclStmt>(s)) {
        for (const Decl* x : ds->decls())
          if (const auto* v = dyn_cast<VarDecl>(x); v != nullptr) {
            if (auto it = vars.find(v); it != vars.end()) {
              it->second.scope = controls;
              it->second.writes.push_back({leaf, controls});
            }
            if (v->getInit() != nullptr) todo.push_back({v->getInit(), false});
          }
        continue;
      }
      const VarDecl* written = nullptr;
      const Expr* target = nullptr;
      if (const auto* u = dyn_cast<UnaryOperator>(s); u != nullptr && u->isIncrementDecrementOp())
        target = u->getSubExpr();
      if (const auto* b = dyn_cast<BinaryOperator>(s); b != nullptr && b->isAssignmentOp())
        target = b->getLHS();
      if (target != nullptr) written = Target(target);
      if (written != nullptr && vars.count(written) > 0)
        vars[written].writes.push_back({leaf, controls});
      if (const auto* c = dyn_cast<ImplicitCastExpr>(s);
          c != nullptr && c->getCastKind() == CK_LValueToRValue &&
          isa<DeclRefExpr>(c->getSubExpr()->IgnoreParens())) {
        todo.push_back({c->getSubExpr()->IgnoreParens(), true});
        continue;
      }
      // A built-in subscript's index is read (in a template's text, where the array's type
      // depends on the template's arguments, clang leaves the index without its conversion to a
      // value: `Mds[ty][k]` names k bare).
      const auto* sub = dyn_cast<ArraySubscriptExpr>(s);
      for (const Stmt* ch : s->children()) {
        if (ch == nullptr) continue;
        const bool is_target = target != nullptr && ch == target;
        const bool index = sub != nullptr && ch == sub->getIdx() &&
                           isa<DeclRefExpr>(sub->getIdx()->IgnoreParens());
        todo.push_back(
            {is_target || index ? cast<Expr>(ch)->IgnoreParens() : ch, is_target || index});
      }
    }
  };
  // The statements: leaves scanned, controls stacked, partings noted.
  std::vector<const Expr*> conds;  // the `if` conditions around the statement, innermost last
  std::vector<const Stmt*> loops;
  std::vector<std::size_t> loop_conds;  // conds.size() where each loop began
  std::function<void(const Stmt*)> walk = [&](const Stmt* s) {
    if (s == nullptr) return;
    if (const auto* c = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt* x : c->body()) walk(x);
      return;
    }
    if (const auto* a = dyn_cast<AttributedStmt>(s)) return walk(a->getSubStmt());
    if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) {
      if (!loops.empty())  // the conditions between the loop and here
        for (std::size_t i = loop_conds.back(); i < conds.size(); ++i)
          parting[loops.back()].push_back(conds[i]);
      return;
    }
    if (const auto* r = dyn_cast<ReturnStmt>(s)) {
      if (r->getRetValue() != nullptr) scan(r->getRetValue());
      return;
    }
    if (const auto* i = dyn_cast<IfStmt>(s)) {
      scan(i->getCond());
      controls.push_back(i);
      conds.push_back(i->isConstexpr() ? nullptr : i->getCond());
      walk(i->getThen());
      walk(i->getElse());
      conds.pop_back();
      controls.pop_back();
      return;
    }
    [[maybe_unused]] const auto [init, cond, inc, body, is_do] = PartsOfLoop(s);
    if (body != nullptr) {
      if (init != nullptr) walk(init);  // its variables are declared outside the loop's steps
      controls.push_back(s);
      loops.push_back(s);
      loop_conds.push_back(conds.size());
      if (cond != nullptr) scan(cond);
      if (inc != nullptr) scan(inc);
      walk(body);
      loop_conds.pop_back();
      loops.pop_back();
      controls.pop_back();
      return;
    }
    scan(s);  // an expression or a declaration
  };
  walk(body);
  for (const auto& [v, var] : vars)
    if (!var.escapes) k.uniform.insert(v);
  // Take out what breaks a rule until nothing does.
  auto cond_of = [](const Stmt* c) -> const Expr* {
    if (const auto* i = dyn_cast<IfStmt>(c)) return i->isConstexpr() ? nullptr : i->getCond();
    if (const auto* f = dyn_cast<ForStmt>(c)) return f->getCond();
    if (const auto* w = dyn_cast<WhileStmt>(c)) return w->getCond();
    if (const auto* d = dyn_cast<DoStmt>(c)) return d->getCond();
    return nullptr;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = k.uniform.begin(); it != k.uniform.end();) {
      const Var& var = vars[*it];
      bool ok = true;
      for (const Write& w : var.writes) {
        if (!ok) break;
        ok = SimtUniformLeaf(w.leaf, k);
        for (std::size_t i = 0; ok && i < w.controls.size(); ++i) {
          const Stmt* c = w.controls[i];
          if (i < var.scope.size() && var.scope[i] == c) continue;  // around the declaration too
          ok = SimtUniformExpr(cond_of(c), k, false);
          if (auto p = parting.find(c); ok && p != parting.end())
            for (const Expr* e : p->second) ok = ok && SimtUniformExpr(e, k, false);
        }
      }
      if (ok) {
        ++it;
      } else {
        it = k.uniform.erase(it);
        changed = true;
      }
    }
  }
  for (const VarDecl* v : k.uniform) k.lanes.erase(v);
}

}  // namespace ws::rewrite_internal

namespace ws::rewrite_internal {

// A uniform statement's text, run once for the warp (the rewriter's other edits in it, such as a
// renamed variable, as the per-thread kernel has them), at its own line.
bool Collector::SimtOnce(const Stmt* of, const std::string& prefix, const std::string& suffix,
                         std::string& out) {
  const CharSourceRange r = FileRange(of->getSourceRange());
  if (r.isInvalid()) return false;
  const unsigned rb = Offset(r.getBegin()), re = Offset(r.getEnd());
  std::vector<Edit> list;
  for (const Edit& x : edits_) {
    if (x.role == 1) continue;
    if (x.begin == x.end ? (x.begin >= rb && x.begin <= re) : (x.begin >= rb && x.end <= re)) {
      Edit y = x;
      y.begin -= rb;
      y.end -= rb;
      list.push_back(std::move(y));
    }
  }
  out += "\n#line " + std::to_string(sm_.getSpellingLineNumber(r.getBegin())) + " \"" +
         CString(DisplayName(sm_.getFileID(r.getBegin()))) + "\"\n";
  out +=
      "WS_SIMT_ONCE(ws_W) " + prefix + ApplyEdits(RawText(rb, re), std::move(list)) + suffix + " ";
  return true;
}

}  // namespace ws::rewrite_internal
