// The floating-point operations a kernel runs (collector.h's NoteFlops): counted on both roads as
// the code executes them, for the kernels table's arithmetic intensity and roofline
// (trace/kernel_table.h).
//
// What counts, as Nsight Compute's FLOP counts do for FADD, FMUL and FFMA: each +, -, * and / of
// floating type (float, double) and each compound assignment of one (`s += a * b`: 2), and 2 for
// an fma call (fmaf, fma, __fmaf_rn, ...). A division counts 1, though the hardware runs it as
// several instructions; sqrt, exp and the other functions count nothing. Not counted: operations
// the compiler folds (a constant expression), those in a constexpr function (evaluated at compile
// time too) and those written inside a macro's body (no place in the file to write the count at).
#include "collector.h"

namespace ws::rewrite_internal {
namespace {

bool IsFloating(QualType t) {
  return !t.isNull() && t->isRealFloatingType();
}

// Is `e` one floating-point operation: + - * / (or their compound assignment) on floating type?
bool IsFlop(const Expr* e) {
  const auto* b = dyn_cast<BinaryOperator>(e);
  if (b == nullptr) return false;
  switch (b->getOpcode()) {
    case BO_Add:
    case BO_Sub:
    case BO_Mul:
    case BO_Div:
      return IsFloating(b->getType());
    case BO_AddAssign:
    case BO_SubAssign:
    case BO_MulAssign:
    case BO_DivAssign:
      return IsFloating(cast<CompoundAssignOperator>(b)->getComputationResultType());
    default:
      return false;
  }
}

// The operations of the tree under `e` that run whenever `e` does (through parentheses, casts
// and unary signs; not into a call's arguments or a ?: branch, which are trees of their own),
// each noted in `seen`.
unsigned TreeFlops(const Expr* e, std::set<const Expr*>* seen) {
  e = e->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus)
      return TreeFlops(u->getSubExpr(), seen);
    return 0;
  }
  if (const auto* c = dyn_cast<CStyleCastExpr>(e)) return TreeFlops(c->getSubExpr(), seen);
  if (!IsFlop(e)) return 0;
  seen->insert(e);
  const auto* b = cast<BinaryOperator>(e);
  return 1 + TreeFlops(b->getLHS(), seen) + TreeFlops(b->getRHS(), seen);
}

bool IsFma(const FunctionDecl* f) {
  static const std::set<std::string> fmas = {"fmaf",      "fma",       "__fmaf_rn", "__fmaf_rz",
                                             "__fmaf_ru", "__fmaf_rd", "__fma_rn",  "__fma_rz",
                                             "__fma_ru",  "__fma_rd"};
  return f != nullptr && fmas.count(NameOf(f)) > 0;
}

}  // namespace

void Collector::NoteFlops(const Expr* e) {
  if (in_constexpr_ || flops_counted_.count(e) > 0 || !IsFlop(e)) return;
  const unsigned ops = TreeFlops(e, &flops_counted_);
  // Folded by the compiler: nothing runs.
  if (e->isEvaluatable(ctx_)) return;
  WrapFlops(e, ops);
}

void Collector::NoteFmaCall(const CallExpr* e) {
  if (in_constexpr_ || !IsFma(e->getDirectCallee()) || e->isEvaluatable(ctx_)) return;
  WrapFlops(e, 2);
}

void Collector::WrapFlops(const Expr* e, unsigned ops) {
  if (ops == 0) return;
  const CharSourceRange r = FileRange(e->getSourceRange());
  if (r.isInvalid()) return;  // inside a macro's body
  const unsigned begin = Offset(r.getBegin()), end = Offset(r.getEnd());
  // A template's text is written once, for its first instantiation's count (the same in every
  // instantiation of one element type; ws_program.h counts only floating results).
  if (!flops_wrapped_.insert({begin, end}).second) return;
  edits_.push_back({begin, begin, "::ws::prog::Flops((", 1, end - begin});
  edits_.push_back({end, end, "), " + std::to_string(ops) + "u)", 0, end - begin});
}

}  // namespace ws::rewrite_internal
