// The SIMT path's warp functions written out (collector_simt.cpp makes their text): each kernel's
// beside it (a program's, named K__ws_warp) or kept apart for the lesson form (a lesson's, named
// as its kernel in namespace ws_simt, or a NoWarp saying why it has none), and the kernel table's
// warp functions.
#include "collector_simt.h"

namespace ws::rewrite_internal {

void Collector::EmitWarp(unsigned at, std::string text) {
  if (!rq_.lesson_places) {
    edits_.push_back({at, at, std::move(text), 0, 0});
    return;
  }
  // A lesson's: in the namespace its WS_LAUNCH looks in, for the emulator's build only.
  const std::string open = "\n#if defined(WS_SIMT)\n", close = "#endif\n#line ";
  const std::size_t end = text.rfind(close);
  if (text.rfind(open, 0) == 0 && end != std::string::npos)
    text = "\n#if defined(WS_LESSON_SIMT)\nnamespace ws_simt {\n" +
           text.substr(open.size(), end - open.size()) + "}  // namespace ws_simt\n" +
           text.substr(end);
  const SourceLocation l = SourceLocation::getFromRawEncoding(at);  // (Offset's encoding)
  if (sm_.isInMainFile(l)) out_->lesson_warps.emplace_back(sm_.getFileOffset(l), std::move(text));
}

void Collector::EmitWarpFunctions() {
  for (const FunctionDecl* f : simt_candidates_) {
    // A template's specializations share its text and so its warp function (a template too).
    if (f->getTemplateSpecializationKind() == TSK_ImplicitInstantiation) continue;
    std::string why;
    const FunctionTemplateDecl* ftd = f->getDescribedFunctionTemplate();
    if (f->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
      why = "an explicit specialization of a kernel template (yet)";
    else if (f->isTemplated() && ftd == nullptr)
      why = "a kernel inside a template (yet)";
    SimtKernel k;
    k.f = f;
    k.pattern = ftd != nullptr;
    // A template's calls are named in its instantiations: each is checked as the text is shared.
    std::size_t hoisted = 0;  // the most calls of warp functions an instantiation makes
    if (why.empty() && ftd != nullptr)
      why = SimtInstantiations(ftd, f->getBody(), /*device=*/false, k, &hoisted);
    const auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody());
    const CharSourceRange fr = FileRange(f->getSourceRange());
    if (why.empty() && (body == nullptr || fr.isInvalid())) why = "a kernel written by a macro";
    if (why.empty()) why = SimtLocalArrayWhy(fr);
    if (why.empty()) why = SimtCheckStmt(body, k, 0);
    // A call the template's text names by a dependent name is resolved in its instantiations
    // only: where one calls a warp function there, the text cannot say which (yet).
    if (why.empty() && k.hoist.size() < hoisted)
      why =
          "a call of a __device__ function that accesses memory, by a name that depends on the "
          "template's arguments (yet)";
    // Parameters the kernel changes (or takes the address of) are the thread's own too.
    std::string params, copies;
    std::vector<const ParmVarDecl*> changed_params;
    for (const ParmVarDecl* p : f->parameters()) {
      const CharSourceRange pr = FileRange(p->getSourceRange());
      if (pr.isInvalid()) {
        if (why.empty()) why = "a parameter written by a macro";
        continue;
      }
      params += ", " + RawText(Offset(pr.getBegin()), Offset(pr.getEnd()));
      if (p->getName().empty()) continue;
      const bool changed = body != nullptr && Changes(body, p);
      if (!changed) continue;
      k.lanes[p] = k.Name("v");
      changed_params.push_back(p);
      if (!p->getType()->isDependentType() && !p->getType()->isIncompleteType())
        k.bytes +=
            32 * static_cast<std::uint64_t>(ctx_.getTypeSizeInChars(p->getType()).getQuantity());
    }
    if (why.empty()) SimtUniform(body, k);  // a uniform parameter stays one value
    for (const ParmVarDecl* p : changed_params) {
      auto it = k.lanes.find(p);
      if (it == k.lanes.end()) continue;
      PrintingPolicy pp = ctx_.getPrintingPolicy();
      pp.SuppressTagKeyword = true;
      pp.FullyQualifiedName = true;
      copies += "::ws::simt::Lanes<std::remove_cv_t<" +
                p->getType().getUnqualifiedType().getAsString(pp) + ">> " + it->second +
                "; for (int ws_i = 0; ws_i < 32; ++ws_i) ::ws::simt::Put(" + it->second +
                "[ws_i], " + p->getName().str() + "); ";
    }
    // The buffers the kernel only reads need no log for the race check (OnlyReadParams).
    const std::vector<bool> only = why.empty() ? OnlyReadParams(f) : std::vector<bool>();
    std::string read, written;
    for (unsigned i = 0; i < only.size(); ++i) {
      const ParmVarDecl* p = f->getParamDecl(i);
      if (p->getName().empty() ||
          (!p->getType()->isPointerType() && !p->getType()->isDependentType()))
        continue;
      std::string& list = only[i] ? read : written;
      list +=
          (list.empty() ? "::ws::simt::PtrOf(" : ", ::ws::simt::PtrOf(") + p->getName().str() + ")";
    }
    if (!read.empty())
      copies = "::ws::simt::OnlyRead(ws_W, {" + read + "}, {" + written + "}); " + copies;
    if (why.empty() && k.bytes > kMaxLaneBytes)
      why = "the thread's variables take " + std::to_string(k.bytes / 32) +
            " bytes, more than a warp's stack holds for 32 lanes";
    std::string text;
    if (why.empty() && !SimtStmt(body, k, text)) why = "a construct the SIMT rewrite missed";
    std::string header;  // a template's parameters as written
    if (ftd != nullptr) {
      const CharSourceRange tr = FileRange(ftd->getTemplateParameters()->getSourceRange());
      if (tr.isValid())
        header = RawText(Offset(tr.getBegin()), Offset(tr.getEnd())) + " ";
      else if (why.empty())
        why = "a template whose parameters a macro writes";
    }
    // After the warp function (or what stands for it), the kernel's last line again.
    const std::string back = "#line " + std::to_string(sm_.getSpellingLineNumber(fr.getEnd())) +
                             " \"" + CString(DisplayName(sm_.getFileID(fr.getEnd()))) + "\"\n";
    if (!why.empty()) {
      simt_no_[f] = why;
      // The lesson's launch finds the kernel's name here all the same: a NoWarp saying why.
      if (rq_.lesson_places && fr.isValid())
        EmitWarp(Offset(fr.getEnd()),
                 "\n#if defined(WS_SIMT)\n" + header + "inline constexpr ::ws::simt::NoWarp " +
                     f->getName().str() + "{\"" + CString(why) + "\"};\n#endif\n" + back);
      continue;
    }
    // A lesson's warp function is named as its kernel (in the lessons' namespace ws_simt).
    const std::string name = f->getName().str() + (rq_.lesson_places ? "" : "__ws_warp");
    // The kernel's name as g++'s __PRETTY_FUNCTION__ writes it (assert's message).
    std::string pretty = PredefinedExpr::ComputeName(PredefinedExpr::PrettyFunction, f);
    for (std::size_t at = 0; (at = pretty.find(" *", at)) != std::string::npos;)
      pretty.erase(at, 1);
    for (std::size_t at = 0; (at = pretty.find(" &", at)) != std::string::npos;)
      pretty.erase(at, 1);
    std::string fn = "\n#if defined(WS_SIMT)\n" + header + "[[maybe_unused]] static inline void " +
                     name + "(::ws::simt::Warp& ws_W" + params +
                     ") { [[maybe_unused]] static constexpr const char ws_pretty[] = \"" +
                     CString(pretty) + "\"; " + copies + text + "}\n#endif\n";
    fn += back;
    EmitWarp(Offset(fr.getEnd()), std::move(fn));
    simt_[f] = name;
  }
  if (rq_.lesson_places) return;  // a lesson file has no launches or kernel table
  // A launch called as written from a function template (its kernel's arguments deduced there):
  // the warp function called the same way, its template arguments deduced alike.
  for (const ViaLaunch& v : via_launches_) {
    const FunctionDecl* key = v.kernel;
    if (key->getTemplateSpecializationKind() == TSK_ImplicitInstantiation &&
        key->getTemplateInstantiationPattern() != nullptr)
      key = key->getTemplateInstantiationPattern();
    if (simt_.count(key) == 0 || Overloaded(v.kernel)) continue;
    std::string warp = v.as_written;
    const std::size_t open = warp.find('<');
    warp.insert(open == std::string::npos ? warp.size() : open, "__ws_warp");
    Edit& e = edits_[v.edit];
    e.text +=
        " WS_SIMT_VIA([&](::ws::simt::Warp& ws_w, auto... ws_a) { " + warp + "(ws_w, ws_a...); })";
  }
  for (std::size_t i = 0; i < kernel_table_decls_.size(); ++i) {
    const FunctionDecl* f = kernel_table_decls_[i];
    const FunctionDecl* key = f;
    if (f->getTemplateSpecializationKind() == TSK_ImplicitInstantiation &&
        f->getTemplateInstantiationPattern() != nullptr)
      key = f->getTemplateInstantiationPattern();
    auto it = simt_.find(key);
    // "&kern" or "&ns::kern<float, 64>"; where a host function has the kernel's name too,
    // "static_cast<void (*)(float *)>(&kern)".
    const std::string& address = out_->kernel_table[i];
    std::string name;
    if (address.rfind("&", 0) == 0) {
      name = address.substr(1);
    } else if (const std::size_t at = address.rfind(">(&");
               address.rfind("static_cast<", 0) == 0 && at != std::string::npos) {
      name = address.substr(at + 3, address.size() - at - 4);
    }
    if (it != simt_.end() && !name.empty()) {
      // The warp function's specialization by the same arguments (of the kernel's parameters,
      // after the warp: an overloaded name's warp functions are told apart as its kernels are).
      const std::size_t open = name.find('<');
      name.insert(open == std::string::npos ? name.size() : open, "__ws_warp");
      std::string warp = "&" + name;
      if (address.rfind("static_cast<", 0) == 0) {
        PrintingPolicy policy = ctx_.getPrintingPolicy();
        policy.SuppressTagKeyword = true;
        std::string type = "void (*)(::ws::simt::Warp&";
        for (const ParmVarDecl* p : f->parameters())
          type += ", " + p->getType().getAsString(policy);
        warp = "static_cast<" + type + ")>(" + warp + ")";
      }
      out_->kernel_table_warp.push_back(warp);
      out_->kernel_table_simt.push_back("");
    } else {
      out_->kernel_table_warp.push_back("");
      auto no = simt_no_.find(key);
      out_->kernel_table_simt.push_back(no != simt_no_.end() ? no->second
                                        : it != simt_.end()  ? "an overloaded kernel (yet)"
                                                             : "no warp function (yet)");
    }
  }
}

}  // namespace ws::rewrite_internal
