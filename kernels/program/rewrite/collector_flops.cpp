// The floating-point operations a kernel runs (collector.h's NoteFlops): counted on both roads as
// the code executes them, for the kernels table's arithmetic intensity and roofline
// (trace/kernel_table.h).
//
// What counts, as Nsight Compute's FLOP counts do for FADD, FMUL and FFMA: each +, -, * and / of
// floating type (float, double) and each compound assignment of one (`s += a * b`: 2), and 2 for
// an fma call (fmaf, fma, __fmaf_rn, ...). A division counts 1, though the hardware runs it as
// several instructions; sqrt, exp and the other functions count nothing. Not counted: operations
// the compiler folds (a constant expression), those in a constexpr function (evaluated at compile
// time too), those written inside a macro's body (no place in the file to write the count at),
// and those of a template that is also instantiated with integer or class arithmetic there
// (its text serves every instantiation: `sum += a * b` of matmul<float> and matmul<int>).
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
  static const std::set<std::string> fmas = {
      "fmaf",           "fma",           "__fmaf_rn",      "__fmaf_rz",
      "__fmaf_ru",      "__fmaf_rd",     "__fma_rn",       "__fma_rz",
      "__fma_ru",       "__fma_rd",      "__fmaf_ieee_rn", "__fmaf_ieee_rz",
      "__fmaf_ieee_ru", "__fmaf_ieee_rd"};
  return f != nullptr && fmas.count(NameOf(f)) > 0;
}

}  // namespace

void Collector::NoteFlops(const Expr* e) {
  if (in_constexpr_ || flops_counted_.count(e) > 0) return;
  if (!IsFlop(e)) {
    // Arithmetic of another type in an instantiation (a template's `sum += a * b` with T = int,
    // or float2 with its own operator): the text it shares with a float instantiation is not
    // counted in either.
    const auto* b = dyn_cast<BinaryOperator>(e);
    const auto* call = dyn_cast<CXXOperatorCallExpr>(e);
    const OverloadedOperatorKind op = call != nullptr ? call->getOperator() : OO_None;
    const bool arithmetic =
        (b != nullptr &&
         (b->isAdditiveOp() || b->isMultiplicativeOp() || b->isCompoundAssignmentOp())) ||
        op == OO_Plus || op == OO_Minus || op == OO_Star || op == OO_Slash || op == OO_PlusEqual ||
        op == OO_MinusEqual || op == OO_StarEqual || op == OO_SlashEqual;
    if (in_instantiation_ && arithmetic) {
      const CharSourceRange r = FileRange(e->getSourceRange());
      if (r.isValid()) not_flops_.insert({Offset(r.getBegin()), Offset(r.getEnd())});
    }
    return;
  }
  const unsigned ops = TreeFlops(e, &flops_counted_);
  // Folded by the compiler: nothing runs. (A generic lambda's body is seen uninstantiated:
  // nothing there can be evaluated.)
  if (e->isValueDependent() || e->isEvaluatable(ctx_)) return;
  WrapFlops(e, ops);
}

void Collector::NoteFmaCall(const CallExpr* e) {
  if (in_constexpr_ || !IsFma(e->getDirectCallee()) || e->isValueDependent() ||
      e->isEvaluatable(ctx_))
    return;
  WrapFlops(e, 2);
}

void Collector::WrapFlops(const Expr* e, unsigned ops) {
  if (ops == 0) return;
  const CharSourceRange r = FileRange(e->getSourceRange());
  if (r.isInvalid()) return;  // inside a macro's body
  flop_trees_.emplace(std::make_pair(Offset(r.getBegin()), Offset(r.getEnd())), ops);
}

// `E` becomes `(::ws::prog::CountFlops(2u), (E))`: a comma, so E keeps its value category and
// type whatever it is (a void operator+= of float2, a bit-field, a type that cannot move), and E
// is written once, with its own edits inside.
void Collector::FinishFlops() {
  for (const auto& [range, ops] : flop_trees_) {
    if (not_flops_.count(range) > 0) continue;
    const auto [begin, end] = range;
    edits_.push_back({begin, begin, "(::ws::prog::CountFlops(" + std::to_string(ops) + "u), (", 1,
                      end - begin, 3});
    edits_.push_back({end, end, "))", 0, end - begin});
  }
}

}  // namespace ws::rewrite_internal
