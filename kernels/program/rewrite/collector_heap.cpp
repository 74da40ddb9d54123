// The device heap in the rewritten text (collector.h): `new T(args)` in device code becomes
// `::ws::prog::HeapNew< T>(args)`, `new T[n]` `::ws::prog::HeapNewArray< T>(n)`, `delete p`
// `::ws::prog::HeapDelete( p)` and `delete[] p` `::ws::prog::HeapDeleteArray( p)`: only the
// keywords and brackets are replaced, so the type, the arguments and any access inside them keep
// their text and their edits, and a template's text serves every instantiation. Placement new
// (`new (buffer) T`) is the program's own and stays as written.
#include "collector.h"

namespace ws::rewrite_internal {

namespace {

// The offset of the first `c` at or after `from` in its file's text, before `limit`; 0 if none.
unsigned Find(const SourceManager& sm, SourceLocation from, SourceLocation limit, char c) {
  bool invalid = false;
  const char* text = sm.getCharacterData(from, &invalid);
  const char* end = sm.getCharacterData(limit, &invalid);
  if (invalid || text == nullptr || end == nullptr) return 0;
  for (const char* p = text; p < end; ++p)
    if (*p == c) return from.getRawEncoding() + static_cast<unsigned>(p - text);
  return 0;
}

}  // namespace

bool Collector::VisitCXXNewExpr(CXXNewExpr* e) {
  if (!in_device_ || e->getNumPlacementArgs() > 0) return true;
  const SourceLocation begin = e->getBeginLoc();
  if (!begin.isFileID() || !IsProgramFile(sm_.getFileID(begin))) return true;
  if (!heap_edits_.insert(Offset(begin)).second) return true;
  const TypeSourceInfo* type = e->getAllocatedTypeSourceInfo();
  if (type == nullptr) return true;
  const SourceLocation type_end =
      Lexer::getLocForEndOfToken(type->getTypeLoc().getEndLoc(), 0, sm_, ctx_.getLangOpts());
  // `new` (after an optional `::`) through the type's first token.
  const unsigned keyword = Find(sm_, begin, type->getTypeLoc().getBeginLoc(), 'n');
  if (keyword == 0) return true;
  if (e->isArray()) {
    const auto size = e->getArraySize();
    if (!size || *size == nullptr) return true;
    const unsigned open = Find(sm_, type_end, (*size)->getBeginLoc(), '[');
    const SourceLocation size_end =
        Lexer::getLocForEndOfToken((*size)->getEndLoc(), 0, sm_, ctx_.getLangOpts());
    const unsigned close = Find(sm_, size_end, e->getEndLoc().getLocWithOffset(1), ']');
    if (open == 0 || close == 0) return true;
    if (e->hasInitializer()) {  // new T[n]() or {...}
      Error(begin, "new[] with an initializer in device code is not supported (yet)");
      return true;
    }
    out_->uses_heap = true;
    edits_.push_back({keyword, keyword + 3, "::ws::prog::HeapNewArray<", 2, 0});
    edits_.push_back({open, open + 1, ">(", 2, 0});
    edits_.push_back({close, close + 1, ")", 2, 0});
    return true;
  }
  out_->uses_heap = true;
  edits_.push_back({keyword, keyword + 3, "::ws::prog::HeapNew<", 2, 0});
  const auto style = e->getInitializationStyle();
  if (style == CXXNewExpr::ListInit) {
    Error(begin,
          "new with a braced initializer in device code is not supported (yet): write "
          "it with parentheses");
    return true;
  }
  // `new T(args)` keeps its parentheses after the closing `>`; `new T` gets `()`.
  edits_.push_back(
      {Offset(type_end), Offset(type_end), style == CXXNewExpr::NoInit ? ">()" : ">", 0, 0});
  return true;
}

bool Collector::VisitCXXDeleteExpr(CXXDeleteExpr* e) {
  if (!in_device_) return true;
  const SourceLocation begin = e->getBeginLoc();
  if (!begin.isFileID() || !IsProgramFile(sm_.getFileID(begin))) return true;
  if (!heap_edits_.insert(Offset(begin)).second) return true;
  const Expr* operand = e->getArgument();
  const SourceLocation arg = operand->getBeginLoc();
  const unsigned keyword = Find(sm_, begin, arg, 'd');
  if (keyword == 0 || !arg.isFileID()) return true;
  // Through `delete` or `delete[]` to the operand: one replacement.
  edits_.push_back({keyword, Offset(arg),
                    e->isArrayForm() ? "::ws::prog::HeapDeleteArray(" : "::ws::prog::HeapDelete(",
                    2, 0});
  const SourceLocation end = Lexer::getLocForEndOfToken(e->getEndLoc(), 0, sm_, ctx_.getLangOpts());
  // The outermost of the closings there (an access of the operand closes inside it).
  edits_.push_back({Offset(end), Offset(end), ")", 0, Offset(end) - keyword});
  return true;
}

}  // namespace ws::rewrite_internal
