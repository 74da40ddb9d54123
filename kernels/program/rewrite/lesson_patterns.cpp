// The lesson form's loop patterns (lesson_form.cpp calls LessonLoopPatterns for each kernel and
// device function): a `for` loop whose accesses the GPU's lane unit can write once, before the
// loop, as the offsets of their first two passes, instead of a row at each access
// (ws_cuda_lane_log.h, LanePatternHead; ws_cuda_arrays.h, PatternHead). The host makes the rows
// the body would have written (LaneLogToCapture), so a figure is the same either way; what
// this file must get right is which loops those rows describe exactly. A loop qualifies where
//   - its header is `for (T k = a; cond; inc)`, one integer variable, and `a`, `cond` and `inc`
//     read no memory and call nothing (the lane unit counts the passes by running the header);
//   - `inc` adds a constant the body does not change to k (++k, k++, --k, k--, k += c, k -= c),
//     and the body never writes k;
//   - the body has no branch (if, switch, ?:, && or ||), loop, jump (break, continue, return,
//     goto), call (a barrier, a warp function, atomicAdd: each is a record of its own, or a
//     branch), address taken or pointer read through `*`, array of its own, or reference
//     variable: so every pass runs every statement, with the lanes that entered the loop;
//   - each access is an array the lesson form records (a pointer parameter, a __shared__ array)
//     indexed fully (one index a pointer, one or two an array), read as a value, assigned, or
//     assigned to with an operator (`a[i] += v`: a load, then a store), and each index is affine
//     in k: sums and differences of k, integer constants and variables the body does not write,
//     products where one side does not involve k; anything else (a division or shift of k, an
//     index read from memory) keeps the loop as it is.
// The passes' records are the body's accesses in the order their proxies record them (an
// assignment's value first, then its store; a compound assignment's value, then its load and
// store; otherwise left to right), each pass the same.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "rewrite_consumer.h"

namespace ws {
namespace {

using namespace clang;  // NOLINT: the analysis names many clang types

// The most accesses a pass of a patterned loop makes (the lane unit holds each one's first offset
// in a register until the second pass's is worked out).
constexpr unsigned kMostPatternSites = 16;

// The leaves and operators Pure and Value (below) both take: a constant (a literal, sizeof), a
// cast to a scalar type that is not a reference (C-style, static_cast, T(x)), an operator of one
// operand that reads it only (+, -, ~, !), and a variable read as a value (an enumerator, a
// template's value, a variable that is not a reference or an array; `pointers`: a pointer too).
bool ConstantLeaf(const Expr* e) {
  return isa<IntegerLiteral>(e) || isa<CharacterLiteral>(e) || isa<CXXBoolLiteralExpr>(e) ||
         isa<FloatingLiteral>(e) || isa<UnaryExprOrTypeTraitExpr>(e);
}
bool ScalarCast(const Expr* e) {
  const auto* c = dyn_cast<ExplicitCastExpr>(e);
  return c != nullptr &&
         (isa<CStyleCastExpr>(e) || isa<CXXStaticCastExpr>(e) || isa<CXXFunctionalCastExpr>(e)) &&
         c->getType()->isScalarType() && !c->getTypeAsWritten()->isReferenceType();
}
bool ReadingOperator(const UnaryOperator* u) {
  const UnaryOperatorKind k = u->getOpcode();
  return k == UO_Plus || k == UO_Minus || k == UO_Not || k == UO_LNot;
}
bool VariableRead(const DeclRefExpr* r, bool pointers) {
  const ValueDecl* d = r->getDecl();
  if (isa<EnumConstantDecl>(d) || isa<NonTypeTemplateParmDecl>(d)) return true;
  const auto* v = dyn_cast<VarDecl>(d);
  return v != nullptr && !v->getType()->isReferenceType() && !v->getType()->isArrayType() &&
         (pointers || !v->getType()->isPointerType());
}

struct PatternAccess {
  const Expr* e;  // the access: the outermost subscript
  bool store;
};

class LoopPattern {
 public:
  LoopPattern(const ForStmt* loop, ASTContext& ctx) : loop_(loop), ctx_(ctx) {}

  // Whether the loop qualifies (above); its accesses in record order in accesses().
  bool Analyze() {
    const auto* init = dyn_cast_or_null<DeclStmt>(loop_->getInit());
    if (init == nullptr || !init->isSingleDecl()) return false;
    k_ = dyn_cast<VarDecl>(init->getSingleDecl());
    // An integer counter of 32 bits or more: a narrower one wraps where its offsets would not.
    if (k_ == nullptr || k_->getInit() == nullptr || !k_->getType()->isIntegerType() ||
        k_->getType()->isReferenceType() || ctx_.getTypeSize(k_->getType()) < 32)
      return false;
    if (loop_->getCond() == nullptr || loop_->getInc() == nullptr || loop_->getBody() == nullptr)
      return false;
    if (!Written(loop_->getBody())) return false;
    if (written_.count(k_) != 0) return false;
    // The header's condition reads k and what the body does not write, so that counting the
    // passes before the loop counts the loop's.
    if (!Pure(k_->getInit()) || !Pure(loop_->getCond()) || !Step(loop_->getInc()) ||
        !InvariantOrK(loop_->getCond()))
      return false;
    if (!Collect(loop_->getBody())) return false;
    return !accesses_.empty() && accesses_.size() <= kMostPatternSites;
  }
  const std::vector<PatternAccess>& accesses() const { return accesses_; }

 private:
  // The variables the body declares or writes (in written_); false where it writes through a
  // reference variable, whose referent could be anything the indices read.
  bool Written(const Stmt* s) {
    if (s == nullptr) return true;
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* x : d->decls())
        if (const auto* v = dyn_cast<VarDecl>(x)) written_.insert(v);
    }
    const Expr* target = nullptr;
    if (const auto* b = dyn_cast<BinaryOperator>(s); b != nullptr && b->isAssignmentOp())
      target = b->getLHS();
    if (const auto* u = dyn_cast<UnaryOperator>(s); u != nullptr && u->isIncrementDecrementOp())
      target = u->getSubExpr();
    if (target != nullptr) {
      // Through any cast too: `(int&)j = 1` writes j.
      target = target->IgnoreParenCasts();
      while (const auto* m = dyn_cast<MemberExpr>(target))
        target = m->getBase()->IgnoreParenCasts();
      if (const auto* r = dyn_cast<DeclRefExpr>(target)) {
        if (const auto* v = dyn_cast<VarDecl>(r->getDecl())) {
          if (v->getType()->isReferenceType()) return false;
          written_.insert(v);
        }
      }
    }
    for (const Stmt* c : s->children())
      if (!Written(c)) return false;
    return true;
  }

  // A variable the indices may read: not written in the body, not k, not a reference.
  bool Invariant(const ValueDecl* d) const {
    if (isa<EnumConstantDecl>(d) || isa<NonTypeTemplateParmDecl>(d)) return true;
    const auto* v = dyn_cast<VarDecl>(d);
    return v != nullptr && v != k_ && written_.count(v) == 0 && !v->getType()->isReferenceType();
  }

  // An expression of variables (any, k among them), constants and arithmetic: no memory read but a
  // variable's, no call, no write.
  bool Pure(const Expr* e) const {
    e = e->IgnoreParens();
    if (ConstantLeaf(e)) return true;
    if (const auto* s = dyn_cast<SubstNonTypeTemplateParmExpr>(e)) return Pure(s->getReplacement());
    if (const auto* c = dyn_cast<ImplicitCastExpr>(e)) return Pure(c->getSubExpr());
    if (isa<ExplicitCastExpr>(e)) return ScalarCast(e) && Pure(cast<CastExpr>(e)->getSubExpr());
    if (const auto* r = dyn_cast<DeclRefExpr>(e)) return VariableRead(r, true);
    if (const auto* m = dyn_cast<MemberExpr>(e)) {
      const auto* base = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
      return !m->isArrow() && base != nullptr && Pure(base);
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e))
      return ReadingOperator(u) && Pure(u->getSubExpr());
    if (const auto* b = dyn_cast<BinaryOperator>(e))
      return !b->isAssignmentOp() && b->getOpcode() != BO_Comma && Pure(b->getLHS()) &&
             Pure(b->getRHS());
    if (const auto* c = dyn_cast<ConditionalOperator>(e))
      return Pure(c->getCond()) && Pure(c->getTrueExpr()) && Pure(c->getFalseExpr());
    return false;
  }

  // Whether `e` reads k.
  bool ReadsK(const Stmt* s) const {
    if (s == nullptr) return false;
    if (const auto* r = dyn_cast<DeclRefExpr>(s); r != nullptr && r->getDecl() == k_) return true;
    for (const Stmt* c : s->children())
      if (ReadsK(c)) return true;
    return false;
  }

  // The header's step: k changed by a constant the body does not write.
  bool Step(const Expr* e) const {
    e = e->IgnoreParens();
    auto is_k = [&](const Expr* x) {
      const auto* r = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
      return r != nullptr && r->getDecl() == k_;
    };
    if (const auto* u = dyn_cast<UnaryOperator>(e))
      return u->isIncrementDecrementOp() && is_k(u->getSubExpr());
    // An integer step (`k += 1.5` adds 1 or 2 as the sum truncates).
    if (const auto* b = dyn_cast<CompoundAssignOperator>(e))
      return (b->getOpcode() == BO_AddAssign || b->getOpcode() == BO_SubAssign) &&
             is_k(b->getLHS()) && b->getComputationResultType()->isIntegerType() &&
             b->getRHS()->IgnoreParenImpCasts()->getType()->isIntegerType() && Pure(b->getRHS()) &&
             !ReadsK(b->getRHS()) && InvariantIn(b->getRHS());
    return false;
  }
  // Every variable `e` reads is Invariant.
  bool InvariantIn(const Stmt* s) const {
    if (s == nullptr) return true;
    if (const auto* r = dyn_cast<DeclRefExpr>(s); r != nullptr && !Invariant(r->getDecl()))
      return false;
    for (const Stmt* c : s->children())
      if (!InvariantIn(c)) return false;
    return true;
  }

  bool InvariantOrK(const Stmt* s) const {
    if (s == nullptr) return true;
    if (const auto* r = dyn_cast<DeclRefExpr>(s);
        r != nullptr && r->getDecl() != k_ && !Invariant(r->getDecl()))
      return false;
    for (const Stmt* c : s->children())
      if (!InvariantOrK(c)) return false;
    return true;
  }

  // Whether index `e` is affine in k (above); *with_k: whether it involves k at all.
  bool Affine(const Expr* e, bool* with_k) const {
    *with_k = false;
    e = e->IgnoreParens();
    if (const auto* c = dyn_cast<ImplicitCastExpr>(e)) {
      // An integer's conversions keep it affine (modulo 2^32 at the offset: the record's 32 bits);
      // through a floating type only what does not involve k.
      if (c->getType()->isIntegerType() && c->getSubExpr()->getType()->isIntegerType() &&
          ctx_.getTypeSize(c->getType()) >= 32)
        return Affine(c->getSubExpr(), with_k);
      return !ReadsK(c) && Pure(c) && InvariantIn(c);
    }
    if (const auto* r = dyn_cast<DeclRefExpr>(e); r != nullptr && r->getDecl() == k_) {
      *with_k = true;
      return true;
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e);
        u != nullptr && (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus))
      return Affine(u->getSubExpr(), with_k);
    if (const auto* b = dyn_cast<BinaryOperator>(e)) {
      bool l = false, r = false;
      switch (b->getOpcode()) {
        case BO_Add:
        case BO_Sub:
          if (!Affine(b->getLHS(), &l) || !Affine(b->getRHS(), &r)) return false;
          *with_k = l || r;
          return true;
        case BO_Mul:
          if (!Affine(b->getLHS(), &l) || !Affine(b->getRHS(), &r) || (l && r)) return false;
          *with_k = l || r;
          return true;
        default:
          break;
      }
    }
    // Anything else, where it does not involve k: a value the same in every pass.
    return !ReadsK(e) && Pure(e) && InvariantIn(e);
  }

  // The array an access indexes where it is one the lesson form records and indexed fully, each
  // index affine in k; false otherwise.
  bool Patterned(const Expr* e) const {
    std::vector<const Expr*> indices;
    e = e->IgnoreParens();
    while (const auto* s = dyn_cast<ArraySubscriptExpr>(e)) {
      indices.push_back(s->getIdx());
      e = s->getBase()->IgnoreParenImpCasts();
    }
    const auto* r = dyn_cast<DeclRefExpr>(e);
    const auto* v = r != nullptr ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
    if (v == nullptr || indices.empty() || written_.count(v) != 0) return false;
    unsigned rank = 0;
    QualType t = v->getType();
    auto array_rank = [&](QualType a) {
      unsigned n = 0;
      while (const auto* c = ctx_.getAsConstantArrayType(a)) {
        ++n;
        a = c->getElementType();
      }
      return n;
    };
    if (isa<ParmVarDecl>(v) && t->isPointerType()) {
      const QualType pointee = t->getPointeeType();
      if (pointee->isPointerType() || pointee->isArrayType()) return false;
      rank = 1;
    } else if (isa<ParmVarDecl>(v) && t->isLValueReferenceType()) {
      rank = array_rank(t.getNonReferenceType());
    } else if (v->hasAttr<CUDASharedAttr>() && !v->hasExternalStorage()) {
      rank = array_rank(t);
    }
    if (rank == 0 || rank > 2 || indices.size() != rank) return false;
    for (const Expr* i : indices) {
      bool with_k = false;
      if (!Affine(i, &with_k)) return false;
      (void)with_k;
    }
    return true;
  }
  bool IsSubscript(const Expr* e) const { return isa<ArraySubscriptExpr>(e->IgnoreParens()); }

  // The body's statements and expressions in the order their records are made; false at anything
  // the pattern cannot describe.
  bool Collect(const Stmt* s) {
    if (s == nullptr || isa<NullStmt>(s)) return true;
    if (const auto* c = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt* x : c->body())
        if (!Collect(x)) return false;
      return true;
    }
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* x : d->decls()) {
        const auto* v = dyn_cast<VarDecl>(x);
        if (v == nullptr || v->getType()->isArrayType() || v->getType()->isReferenceType() ||
            v->hasAttr<CUDASharedAttr>() || v->isStaticLocal())
          return false;
        if (v->getInit() != nullptr && !Value(v->getInit())) return false;
      }
      return true;
    }
    if (const auto* e = dyn_cast<Expr>(s)) return Value(e, true);
    return false;  // a branch, a loop, a jump, asm, ...
  }

  // An expression's records in order.
  // `statement`: `e` is a whole statement, the only place an element may be assigned (used as a
  // value, `c[k] = a[k] = 0` reads a[k] back through its proxy, a record the pattern would lack).
  bool Value(const Expr* e, bool statement = false) {
    e = e->IgnoreParens();
    if (ConstantLeaf(e)) return true;
    if (const auto* s = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
      return Value(s->getReplacement());
    if (const auto* c = dyn_cast<ImplicitCastExpr>(e)) {
      if (c->getCastKind() == CK_LValueToRValue && IsSubscript(c->getSubExpr())) {
        if (!Patterned(c->getSubExpr())) return false;
        accesses_.push_back({c->getSubExpr()->IgnoreParens(), false});
        return true;
      }
      return Value(c->getSubExpr());
    }
    if (isa<ExplicitCastExpr>(e)) return ScalarCast(e) && Value(cast<CastExpr>(e)->getSubExpr());
    // A recorded array's name alone (passed on, decayed to a pointer) is not an access.
    if (const auto* r = dyn_cast<DeclRefExpr>(e)) return VariableRead(r, false);
    if (const auto* m = dyn_cast<MemberExpr>(e)) {
      const auto* base = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
      return !m->isArrow() && base != nullptr && Value(base);
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e)) {
      if (ReadingOperator(u)) return Value(u->getSubExpr());
      switch (u->getOpcode()) {
        case UO_PreInc:
        case UO_PreDec:
        case UO_PostInc:
        case UO_PostDec:
          // A local's; an element's (a load and a store the proxy makes as `a[i] += 1`) is left.
          return !IsSubscript(u->getSubExpr()) && Value(u->getSubExpr());
        default:
          return false;  // * and &
      }
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e)) {
      switch (b->getOpcode()) {
        case BO_LAnd:
        case BO_LOr:
        case BO_Comma:
        case BO_PtrMemD:
        case BO_PtrMemI:
          return false;
        default:
          break;
      }
      if (b->isAssignmentOp()) {
        const Expr* lhs = b->getLHS()->IgnoreParens();
        if (!Value(b->getRHS())) return false;
        if (IsSubscript(lhs)) {
          if (!statement || !Patterned(lhs)) return false;
          if (b->isCompoundAssignmentOp()) accesses_.push_back({lhs, false});
          accesses_.push_back({lhs, true});
          return true;
        }
        return Value(lhs);
      }
      return Value(b->getLHS()) && Value(b->getRHS());
    }
    return false;  // a call, ?:, a lambda, new, ...
  }

  const ForStmt* loop_;
  ASTContext& ctx_;
  const VarDecl* k_ = nullptr;
  std::set<const VarDecl*> written_;
  std::vector<PatternAccess> accesses_;
};

class Patterns {
 public:
  Patterns(ASTContext& ctx, std::vector<Edit>* out, std::set<unsigned>* done)
      : ctx_(ctx), sm_(ctx.getSourceManager()), out_(out), done_(done) {}

  // A loop under an attribute (`#pragma unroll`) is left as it is: the block put before it would
  // part the pragma from its loop. The loops in its body are still looked at.
  void Walk(const Stmt* s, bool attributed = false) {
    if (s == nullptr) return;
    if (const auto* a = dyn_cast<AttributedStmt>(s)) return Walk(a->getSubStmt(), true);
    if (const auto* f = dyn_cast<ForStmt>(s); f != nullptr && !attributed) Loop(f);
    for (const Stmt* c : s->children()) Walk(c);
  }

 private:
  static constexpr unsigned kNone = ~0u;

  // The file offset of `l` (kNone in a macro or another file).
  unsigned Offset(SourceLocation l) const {
    if (l.isInvalid() || l.isMacroID() || !sm_.isInMainFile(l)) return kNone;
    return sm_.getFileOffset(l);
  }
  unsigned EndOffset(SourceLocation l) const {  // just past the token at `l`
    const unsigned o = Offset(l);
    return o == kNone ? kNone : o + Lexer::MeasureTokenLength(l, sm_, ctx_.getLangOpts());
  }
  std::string Text(SourceRange r) const {
    const unsigned b = Offset(r.getBegin()), e = EndOffset(r.getEnd());
    if (b == kNone || e == kNone || e < b) return {};
    return sm_.getBufferData(sm_.getMainFileID()).substr(b, e - b).str();
  }
  unsigned Line(SourceLocation l) const { return sm_.getSpellingLineNumber(l); }

  void Loop(const ForStmt* f) {
    const unsigned at = Offset(f->getForLoc());
    if (at == kNone || done_->count(at) != 0) return;
    LoopPattern p(f, ctx_);
    if (!p.Analyze()) return;
    // The header as written, for the pass count; the counter's declaration and step.
    const std::string header = Text({f->getForLoc(), f->getRParenLoc()});
    const std::string init = Text(f->getInit()->getSourceRange());
    const std::string inc = Text(f->getInc()->getSourceRange());
    if (header.empty() || init.empty() || inc.empty()) return;
    // Just past the loop (its body's `}` or `;`): the block before it and the loop are one
    // statement in braces, so that a loop that is another's body (or an if's) stays one.
    SourceLocation after;
    if (const auto* body = dyn_cast<CompoundStmt>(f->getBody())) {
      after = body->getRBracLoc().getLocWithOffset(1);
    } else {
      after = Lexer::findLocationAfterToken(f->getBody()->getEndLoc(), tok::semi, sm_,
                                            ctx_.getLangOpts(), false);
    }
    const unsigned end = Offset(after);
    if (end == kNone) return;
    std::vector<std::string> sites;
    for (const PatternAccess& a : p.accesses()) {
      const std::string text = Text(a.e->getSourceRange());
      if (text.empty()) return;  // in a macro: left as it is
      sites.push_back(text);
    }
    done_->insert(at);
    const unsigned line = Line(f->getForLoc());
    // Before the loop, in the lane unit alone: its passes, then each access's offsets in the first
    // two, each at its own line (the site's place is the line its index is built on).
    std::string s =
        "{\n#if defined(WS_LANE_LOG_BUILD) && defined(__CUDA_ARCH__)\n"
        "{ const unsigned ws_lanes = __activemask(); unsigned ws_passes = 0;\n";
    s += "#line " + std::to_string(line) + "\n" + header + " ++ws_passes;\n";
    s += "::ws::PatternHead(ws_passes, " + std::to_string(sites.size()) + "u, ws_lanes);\n";
    s += "{ " + init + (init.back() == ';' ? "" : ";") + "\n";
    const auto& accesses = p.accesses();
    for (std::size_t i = 0; i < sites.size(); ++i) {
      s += "#line " + std::to_string(Line(accesses[i].e->getBeginLoc())) + "\n";
      s += "const ::ws::PatternAt ws_pattern" + std::to_string(i) + " = ::ws::Pattern" +
           (accesses[i].store ? "Store" : "Load") + "(" + sites[i] + ");\n";
    }
    s += "#line " + std::to_string(line) + "\n" + inc + ";\n";
    for (std::size_t i = 0; i < sites.size(); ++i) {
      s += "#line " + std::to_string(Line(accesses[i].e->getBeginLoc())) + "\n";
      s += "::ws::PatternSite(ws_pattern" + std::to_string(i) + ", ::ws::Pattern" +
           (accesses[i].store ? "Store" : "Load") + "(" + sites[i] + "));\n";
    }
    s += "} }\n#endif\n#line " + std::to_string(line) + "\n";
    out_->push_back({at, at, std::move(s), 1, ~0u, 0});
    out_->push_back({end, end, " }", 0, ~0u, 0});
    // The body's accesses: each once (a compound assignment's load and store are one access).
    std::set<unsigned> wrapped;
    for (const PatternAccess& a : accesses) {
      const unsigned b = Offset(a.e->getBeginLoc()), e = EndOffset(a.e->getEndLoc());
      if (!wrapped.insert(b).second) continue;
      out_->push_back({b, b, "::ws::Unrecorded(", 1, e - b, 0});
      out_->push_back({e, e, ")", 0, e - b, 0});
    }
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  std::vector<Edit>* out_;
  std::set<unsigned>* done_;
};

}  // namespace

void LessonLoopPatterns(const FunctionDecl* f, ASTContext& ctx, std::vector<Edit>* out,
                        std::set<unsigned>* done) {
  if (f == nullptr || !f->hasBody()) return;
  Patterns(ctx, out, done).Walk(f->getBody());
}

}  // namespace ws
