/* The parameter panel with Dear ImGui (panel.h), Debian's libimgui-dev with its GLFW and OpenGL 3
 * backends. The only C++ of the project: it edits a viz_panel_state and nothing else. ImGui keeps
 * its own context; the panel owns it and makes it current around every call. */
#include "panel.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <new>

struct viz_panel {
    ImGuiContext *context;
};

viz_panel *viz_panel_create(GLFWwindow *window, float scale)
{
    viz_panel *p = new (std::nothrow) viz_panel{nullptr};
    if (!p) {
        std::fprintf(stderr, "drape-view: no memory for the panel\n");
        return nullptr;
    }
    IMGUI_CHECKVERSION();
    p->context = ImGui::CreateContext();
    ImGui::SetCurrentContext(p->context);
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr; /* no imgui.ini in the working directory */
    io.FontGlobalScale = scale;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().ScaleAllSizes(scale);
    if (!ImGui_ImplGlfw_InitForOpenGL(window, true) || !ImGui_ImplOpenGL3_Init("#version 330 core")) {
        std::fprintf(stderr, "drape-view: cannot start Dear ImGui's GLFW and OpenGL 3 backends\n");
        viz_panel_destroy(p);
        return nullptr;
    }
    return p;
}

void viz_panel_destroy(viz_panel *p)
{
    if (!p)
        return;
    ImGui::SetCurrentContext(p->context);
    if (ImGui::GetIO().BackendRendererUserData)
        ImGui_ImplOpenGL3_Shutdown();
    if (ImGui::GetIO().BackendPlatformUserData)
        ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(p->context);
    delete p;
}

/* One family's stiffness: PBD k, or XPBD compliance on a logarithmic slider. */
static void family(viz_family *f, const char *name)
{
    if (!f->present)
        return;
    ImGui::PushID(name);
    ImGui::Checkbox("XPBD", &f->xpbd);
    ImGui::SameLine();
    if (f->xpbd) {
        if (f->compliance <= 0.0f)
            f->compliance = 1e-6f;
        ImGui::SliderFloat(name, &f->compliance, 1e-9f, 1.0f, "%.2e m/N",
                           ImGuiSliderFlags_Logarithmic);
    } else {
        ImGui::SliderFloat(name, &f->stiffness, 0.0f, 1.0f, "k %.3f");
    }
    ImGui::PopID();
}

void viz_panel_draw(viz_panel *p, viz_panel_state *state)
{
    ImGui::SetCurrentContext(p->context);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const ImGuiIO &io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 8.0f, 8.0f), ImGuiCond_FirstUseEver,
                            ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowCollapsed(io.DisplaySize.x < 900.0f, ImGuiCond_FirstUseEver); /* small: folded */
    ImGui::SetNextWindowBgAlpha(0.85f);
    if (ImGui::Begin("Solver", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        viz_settings *s = &state->settings;
        ImGui::PushItemWidth(ImGui::GetFontSize() * 11.0f);
        if (ImGui::Button(state->paused ? "Run" : "Pause"))
            state->paused = !state->paused;
        ImGui::SameLine();
        if (ImGui::Button("Step"))
            state->step = true;
        ImGui::SameLine();
        if (ImGui::Button("Reset"))
            state->reset = true;
        ImGui::SliderInt("iterations", &s->iterations, 1, 64);
        ImGui::SliderInt("substeps", &s->substeps, 1, 64);
        ImGui::SliderFloat("damping", &s->damping, 0.0f, 1.0f, "%.4f", ImGuiSliderFlags_Logarithmic);
        ImGui::SliderFloat("air drag 1/s", &s->air_drag, 0.0f, 20.0f, "%.2f");
        ImGui::DragFloat3("gravity m/s2", &s->gravity.x, 0.05f, -50.0f, 50.0f, "%.2f");
        ImGui::DragFloat3("wind m/s", &s->wind.x, 0.05f, -50.0f, 50.0f, "%.2f");
        for (int f = 0; f < VIZ_FAMILY_COUNT; ++f)
            family(&s->family[f], viz_family_name(static_cast<viz_family_id>(f)));
        ImGui::PopItemWidth();
    }
    ImGui::End();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool viz_panel_wants_mouse(const viz_panel *p)
{
    ImGui::SetCurrentContext(p->context);
    return ImGui::GetIO().WantCaptureMouse;
}

bool viz_panel_wants_keyboard(const viz_panel *p)
{
    ImGui::SetCurrentContext(p->context);
    return ImGui::GetIO().WantCaptureKeyboard;
}
