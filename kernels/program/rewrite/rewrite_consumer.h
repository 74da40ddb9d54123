// Inside the rewriter: the AST consumer that collects a program's accesses and launches and
// rewrites its text (program_rewrite.cpp), for the tooling glue (rewrite_driver.cpp).
#pragma once

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "warpscope/program/program_rewrite.h"

namespace ws {

// One text edit of a file: an insertion (begin == end) or a replacement. Opening and
// closing insertions of nested accesses must nest: see ApplyEdits().
struct Edit {
  unsigned begin = 0, end = 0;
  std::string text;
  int cls = 0;        // 0 close, 1 open, 2 replace (order among edits at one offset)
  unsigned span = 0;  // the access's length: outer opens first, inner closes first
  // What the SIMT path's warp function (collector_simt.cpp) makes of it: 0 the same, 1 left out
  // (a loop's or call's instance marker), 2 an access's (made anew with its slot), 3 a FLOP
  // count's opening (counted on the warp).
  int role = 0;
};

// Applies the edits to `text`. At one offset: closing insertions first (inner before outer),
// then opening ones (outer before inner), then a replacement; an edit inside a range already
// replaced is skipped.
// Is `f` __device__ as written (not made __host__ __device__ by the shim's
// force_cuda_host_device pragma, which marks every plain function)?
inline bool WrittenDevice(const clang::FunctionDecl* f) {
  const auto* a = f->getAttr<clang::CUDADeviceAttr>();
  return a != nullptr && !a->isImplicit();
}

std::string ApplyEdits(const std::string& text, std::vector<Edit> edits);

// The lesson form's loop patterns (lesson_patterns.cpp): the edits that make each loop of `f`'s
// body whose accesses are affine in its counter write them once, before the loop, in the GPU's
// lane unit (ws_cuda_arrays.h, PatternHead), appended to `out`; `done`, the loops' offsets
// already given theirs (a template's loop is met in each instantiation). `f` must have no
// dependent types (a template's instantiation, not its pattern).
void LessonLoopPatterns(const clang::FunctionDecl* f, clang::ASTContext& ctx,
                        std::vector<Edit>* out, std::set<unsigned>* done);

// Fills result->program (the rewritten source and its sites) and result->errors.
std::unique_ptr<clang::ASTConsumer> MakeRewriteConsumer(RewriteResult* result,
                                                        const RewriteRequest& request);
// Fills result->program.source with a lesson kernel file in the lessons' API (lesson_form.cpp).
std::unique_ptr<clang::ASTConsumer> MakeLessonFormConsumer(RewriteResult* result);

}  // namespace ws
