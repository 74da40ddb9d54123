// The lesson form (program_rewrite.h, RewriteRequest::lesson_form): a built-in lesson's kernel
// file, written as plain CUDA as the slides print it, turned into the recording API the lessons'
// drivers launch (ws_cuda.h) by changing declarations, and marking each kernel's entry:
//
//   T* p (a kernel's or device function's parameter)   ->  ::ws::Global<T> p
//   __shared__ T s[A][B]                                ->  __shared__ ::ws::SharedArray<T, A, B> s
//   extern __shared__ T s[]                             ->  ::ws::DynamicShared<T> s
//   T (&s)[A] (a parameter naming a shared array)       ->  ::ws::SharedArray<T, A>& s
//   cudaTextureObject_t t (read by tex2D<T>(t, x, y))   ->  ::ws::Texture2D<T> t
//   __constant__ T c[N] (at file scope)                 ->  static __constant__
//                                                           ::ws::ConstantArray<T, N> c
//   a kernel's body { ...                               ->  { WS_KERNEL_ENTRY ...
//
// Every expression stays as written (the proxies record what it reads and writes), and each
// replacement stays on its line, so the sites' lines are the plain file's. After each kernel, for
// the emulator's build, its warp function (the SIMT path: RewrittenProgram::lesson_warps).
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/TypeLoc.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "rewrite_consumer.h"

namespace ws {
namespace {

using namespace clang;  // NOLINT: the visitor names many clang types

class LessonForm : public RecursiveASTVisitor<LessonForm> {
 public:
  LessonForm(ASTContext& ctx, std::vector<ProgramDiagnostic>* errors)
      : ctx_(ctx), sm_(ctx.getSourceManager()), errors_(errors) {}

  bool VisitFunctionDecl(FunctionDecl* f) {
    if (!(f->hasAttr<CUDAGlobalAttr>() || WrittenDevice(f)) || !InMainFile(f)) return true;
    if (const FunctionTemplateDecl* t = f->getDescribedFunctionTemplate();
        t != nullptr && f->hasAttr<CUDAGlobalAttr>()) {
      std::string args;  // each integer parameter 16: any value names the same text
      for (const NamedDecl* p : *t->getTemplateParameters()) {
        const auto* n = dyn_cast<NonTypeTemplateParmDecl>(p);
        if (n == nullptr || !n->getType()->isIntegralOrEnumerationType()) {
          args.clear();
          break;
        }
        args += std::string(args.empty() ? "" : ", ") + "16";
      }
      if (!args.empty()) templates_.push_back(f->getName().str() + "<" + args + ">");
    }
    // The kernel's entry (WS_KERNEL_ENTRY, ws_cuda_arrays.h): where the lane unit's build
    // starts the kernel's lane log, after the body's brace on its line.
    // Once a body: an insertion is not an edit ApplyEdits would skip when seen twice, and two
    // would declare the lane unit's registers twice.
    if (const auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody());
        body != nullptr && f->hasAttr<CUDAGlobalAttr>() && f->doesThisDeclarationHaveABody()) {
      const unsigned at = Offset(body->getLBracLoc());
      if (at != kNone && std::find(entries_.begin(), entries_.end(), at) == entries_.end()) {
        entries_.push_back(at);
        out_.push_back({at + 1, at + 1, " WS_KERNEL_ENTRY", 1, 0});
      }
    }
    // Its loops whose accesses the lane unit writes as patterns: a template's in each of its
    // instantiations (the rewrite adds one of each after the file's text: RewriteProgram), where
    // the types are known.
    if (const FunctionTemplateDecl* t = f->getDescribedFunctionTemplate(); t != nullptr) {
      for (const FunctionDecl* s : t->specializations())
        LessonLoopPatterns(s, ctx_, &out_, &patterned_);
    } else if (!f->isTemplateInstantiation() && !f->isDependentContext()) {
      LessonLoopPatterns(f, ctx_, &out_, &patterned_);
    }
    for (ParmVarDecl* p : f->parameters()) {
      if (p->getTypeSourceInfo() == nullptr || p->getIdentifier() == nullptr) continue;
      TypeLoc tl = p->getTypeSourceInfo()->getTypeLoc();
      if (auto ptr = tl.getAs<PointerTypeLoc>()) {
        // `const float* in`: the text before the star is the element type as written.
        const unsigned b = Offset(p->getBeginLoc()), star = Offset(ptr.getStarLoc());
        if (b == kNone || star == kNone || star < b) continue;
        std::string element = text_.substr(b, star - b);
        while (!element.empty() && element.back() == ' ') element.pop_back();
        out_.push_back({b, star + 1, "::ws::Global<" + element + ">", 2, 0});
      } else if (auto ref = tl.getAs<LValueReferenceTypeLoc>()) {
        TypeLoc inner = ref.getPointeeLoc().IgnoreParens();
        if (inner.getAs<ArrayTypeLoc>()) Replace(p, inner, "", "& ");
      } else if (auto td = tl.getAs<TypedefTypeLoc>();
                 td && td.getTypedefNameDecl()->getName() == "cudaTextureObject_t") {
        TextureParameter(f, p, td);
      }
    }
    return true;
  }

  bool VisitVarDecl(VarDecl* v) {
    if (isa<ParmVarDecl>(v) || !InMainFile(v)) return true;
    if (v->hasAttr<CUDAConstantAttr>()) {
      ConstantArray(v);
      return true;
    }
    if (!v->hasAttr<CUDASharedAttr>()) return true;
    TypeLoc tl = v->getTypeSourceInfo()->getTypeLoc();
    if (v->hasExternalStorage()) {
      auto array = tl.getAs<IncompleteArrayTypeLoc>();
      if (!array) {
        Error(v->getLocation(), "extern __shared__ " + v->getName().str() + " must be an array");
        return true;
      }
      const unsigned b = Begin(v), e = End(v);
      if (b != kNone && e != kNone)
        out_.push_back(
            {b, e,
             "::ws::DynamicShared<" + Spelled(array.getElementLoc()) + "> " + v->getName().str()});
      return true;
    }
    if (tl.getAs<ArrayTypeLoc>()) Replace(v, tl, "__shared__ ", " ");
    return true;
  }

  std::vector<Edit>& replacements() { return out_; }
  std::vector<std::string>& templates() { return templates_; }
  void set_text(std::string text) { text_ = std::move(text); }

 private:
  static constexpr unsigned kNone = ~0u;

  bool InMainFile(const Decl* d) const {
    return sm_.isInMainFile(sm_.getExpansionLoc(d->getLocation()));
  }
  unsigned Offset(SourceLocation l) const {
    l = sm_.getExpansionLoc(l);
    if (!sm_.isInMainFile(l)) return kNone;
    return sm_.getFileOffset(l);
  }
  unsigned Begin(const Decl* d) const { return Offset(d->getBeginLoc()); }
  unsigned End(const Decl* d) const {  // just past the declaration's last token
    const SourceLocation e = sm_.getExpansionLoc(d->getEndLoc());
    if (!sm_.isInMainFile(e)) return kNone;
    return sm_.getFileOffset(e) + Lexer::MeasureTokenLength(e, sm_, ctx_.getLangOpts());
  }
  std::string Spelled(TypeLoc t) const { return t.getType().getAsString(ctx_.getPrintingPolicy()); }
  void Error(SourceLocation l, std::string message) {
    const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
    errors_->push_back({p.isValid() ? p.getLine() : 0u, p.isValid() ? p.getColumn() : 0u, true,
                        std::move(message)});
  }

  // `d`, an array of one or two dimensions (`tl`), becomes PREFIX ::ws::SharedArray<T, A, B>
  // SEPARATOR name, each dimension as written.
  void Replace(const DeclaratorDecl* d, TypeLoc tl, const std::string& prefix,
               const std::string& separator) {
    std::vector<std::string> dims;
    TypeLoc element = tl;
    while (auto a = element.getAs<ArrayTypeLoc>()) {
      const Expr* size = a.getSizeExpr();
      if (size == nullptr) break;
      const CharSourceRange r = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(size->getSourceRange()), sm_, ctx_.getLangOpts());
      if (r.isInvalid()) break;
      dims.push_back(Lexer::getSourceText(r, sm_, ctx_.getLangOpts()).str());
      element = a.getElementLoc().IgnoreParens();
    }
    if (dims.empty() || dims.size() > 2 || element.getAs<ArrayTypeLoc>()) {
      Error(d->getLocation(), d->getName().str() +
                                  ": a __shared__ array of one or two dimensions, each with its "
                                  "size written, is what a lesson kernel may declare");
      return;
    }
    const unsigned b = Begin(d), e = End(d);
    if (b == kNone || e == kNone) return;
    std::string text = prefix + "::ws::SharedArray<" + Spelled(element);
    for (const std::string& dim : dims) text += ", " + dim;
    out_.push_back({b, e, text + ">" + separator + d->getName().str(), 2, 0});
  }

  // `cudaTextureObject_t t` (a kernel's parameter) -> `::ws::Texture2D<T> t`, T as the
  // kernel's tex2D<T>(t, x, y) names it (the driver's MakeTexture2D).
  void TextureParameter(const FunctionDecl* f, const ParmVarDecl* p, TypedefTypeLoc td) {
    std::string element;
    std::vector<const Stmt*> todo = {f->getBody()};
    while (!todo.empty() && element.empty()) {
      const Stmt* s = todo.back();
      todo.pop_back();
      if (s == nullptr) continue;
      for (const Stmt* c : s->children()) todo.push_back(c);
      const auto* call = dyn_cast<CallExpr>(s);
      const FunctionDecl* callee = call != nullptr ? call->getDirectCallee() : nullptr;
      if (callee == nullptr || callee->getIdentifier() == nullptr || callee->getName() != "tex2D" ||
          call->getNumArgs() < 1)
        continue;
      const auto* d = dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts());
      const TemplateArgumentList* args = callee->getTemplateSpecializationArgs();
      if (d != nullptr && d->getDecl() == p && args != nullptr && args->size() >= 1 &&
          args->get(0).getKind() == TemplateArgument::Type)
        element = args->get(0).getAsType().getAsString(ctx_.getPrintingPolicy());
    }
    if (element.empty()) {
      Error(p->getLocation(), p->getName().str() +
                                  ": a texture a lesson kernel takes is read by tex2D<T>(" +
                                  p->getName().str() + ", x, y), which names its texels' type");
      return;
    }
    const unsigned b = Offset(p->getBeginLoc()), e = Offset(td.getNameLoc());
    if (b == kNone || e == kNone) return;
    out_.push_back({b, e + static_cast<unsigned>(td.getTypedefNameDecl()->getName().size()),
                    "::ws::Texture2D<" + element + ">", 2, 0});
  }

  // `__constant__ T c[N]` at file scope (filled by cudaMemcpyToSymbol: the driver's
  // CopyToSymbol) -> `static __constant__ ::ws::ConstantArray<T, N> c`, one per build, and after
  // it the name its warp functions index (WS_LESSON_CONSTANT_VIEW, closed by the `;` as written).
  void ConstantArray(const VarDecl* v) {
    TypeLoc tl = v->getTypeSourceInfo()->getTypeLoc();
    auto array = tl.getAs<ConstantArrayTypeLoc>();
    const Expr* size = array ? array.getSizeExpr() : nullptr;
    CharSourceRange r;
    if (size != nullptr)
      r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(size->getSourceRange()), sm_,
                                   ctx_.getLangOpts());
    if (!v->isFileVarDecl() || size == nullptr || r.isInvalid() ||
        array.getElementLoc().IgnoreParens().getAs<ArrayTypeLoc>() || v->hasInit()) {
      Error(v->getLocation(),
            v->getName().str() +
                ": a __constant__ array of one dimension at file scope, its size written and "
                "filled by cudaMemcpyToSymbol, is what a lesson kernel may declare");
      return;
    }
    const unsigned b = Begin(v), e = End(v);
    if (b == kNone || e == kNone) return;
    const std::string name = v->getName().str();
    out_.push_back({b, e,
                    "static __constant__ ::ws::ConstantArray<" + Spelled(array.getElementLoc()) +
                        ", " + Lexer::getSourceText(r, sm_, ctx_.getLangOpts()).str() + "> " +
                        name + "; WS_LESSON_CONSTANT_VIEW(" + name + ")",
                    2, 0});
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  std::vector<ProgramDiagnostic>* errors_;
  std::vector<Edit> out_;
  std::vector<unsigned> entries_;  // the kernel bodies' braces marked
  std::set<unsigned> patterned_;   // the loops written as patterns (LessonLoopPatterns)
  std::vector<std::string> templates_;
  std::string text_;
};

class Consumer : public ASTConsumer {
 public:
  explicit Consumer(RewriteResult* result) : result_(result) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    const SourceManager& sm = ctx.getSourceManager();
    const std::string text = sm.getBufferData(sm.getMainFileID()).str();
    LessonForm form(ctx, &result_->errors);
    form.set_text(text);
    form.TraverseDecl(ctx.getTranslationUnitDecl());
    result_->program.lesson_kernel_templates = std::move(form.templates());
    for (auto& [at, warp] : result_->program.lesson_warps)  // each kernel's warp function
      form.replacements().push_back({at, at, std::move(warp), 0, 0});
    // A template's pattern seen twice gives one replacement twice: ApplyEdits skips the second.
    result_->program.source = ApplyEdits(text, std::move(form.replacements()));
  }

 private:
  RewriteResult* result_;
};

}  // namespace

std::unique_ptr<ASTConsumer> MakeLessonFormConsumer(RewriteResult* result) {
  return std::make_unique<Consumer>(result);
}

}  // namespace ws
