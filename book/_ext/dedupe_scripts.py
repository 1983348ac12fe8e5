"""같은 <script>가 한 페이지에 두 번 실리는 것을 막는 작은 Sphinx 확장.

Jupyter Book 1.0.4 + Sphinx 7.4에서는 thebe 설정 스크립트(THEBE_JS_URL을 선언하는 인라인 스크립트)가 모든 페이지에
두 번 들어가, 브라우저가 `SyntaxError: Identifier 'THEBE_JS_URL' has already been declared`를 냅니다.
파일 이름과 속성(인라인 본문 포함)이 같은 항목은 하나만 남깁니다.
"""


def _dedupe(app, pagename, templatename, context, doctree):
    seen, unique = set(), []
    for js in context.get("script_files", []):
        key = (js.filename or "", tuple(sorted((k, str(v)) for k, v in js.attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(js)
    context["script_files"] = unique


def setup(app):
    app.connect("html-page-context", _dedupe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
