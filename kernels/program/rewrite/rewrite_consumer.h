// Inside the rewriter: the AST consumer that collects a program's accesses and launches and
// rewrites its text (program_rewrite.cpp), for the tooling glue (rewrite_driver.cpp).
#pragma once

#include <clang/AST/ASTConsumer.h>

#include <memory>

#include "warpscope/program/program_rewrite.h"

namespace ws {

// Fills result->program (the rewritten source and its sites) and result->errors.
std::unique_ptr<clang::ASTConsumer> MakeRewriteConsumer(RewriteResult* result);
// Fills result->program.source with a lesson kernel file in the lessons' API (lesson_form.cpp).
std::unique_ptr<clang::ASTConsumer> MakeLessonFormConsumer(RewriteResult* result);

}  // namespace ws
