// helm-render renders a Helm chart with Helm's own template engine parts (Go's text/template
// and Sprig), for machines where no helm binary can be installed. It implements what charts
// commonly use beyond Sprig: include, tpl, required, fail, toYaml, fromYaml, toJson, fromJson,
// lookup (always empty, as in `helm template`), .Values merged from values.yaml, -f files and
// --set, .Release, .Chart, .Capabilities and .Template. Output is `helm template`'s: one
// `---` document per non-empty template with a `# Source:` comment.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"gopkg.in/yaml.v3"
)

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// apiVersions answers .Capabilities.APIVersions.Has like `helm template` without a cluster.
type apiVersions []string

func (a apiVersions) Has(version string) bool {
	for _, v := range a {
		if v == version {
			return true
		}
	}
	return false
}

func main() {
	var valueFiles, sets stringList
	releaseName := flag.String("name", "release-name", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	kubeVersion := flag.String("kube-version", "1.30.0", "Kubernetes version for .Capabilities")
	flag.Var(&valueFiles, "f", "values file (repeatable; later wins)")
	flag.Var(&sets, "set", "key=value[,key=value] (repeatable; later wins)")
	notes := flag.Bool("notes", false, "render templates/NOTES.txt instead of the manifests")
	valuesOut := flag.String("values-out", "", "also write the merged values as JSON here (for values.schema.json checks)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: helm-render [flags] CHART_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	out, err := render(flag.Arg(0), *releaseName, *namespace, *kubeVersion, valueFiles, sets, *notes, *valuesOut)
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	fmt.Print(out)
}

func render(chartDir, releaseName, namespace, kubeVersion string, valueFiles, sets []string, notes bool, valuesOut string) (string, error) {
	chart, err := readYAMLMap(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return "", fmt.Errorf("Chart.yaml: %w", err)
	}
	values, err := readYAMLMap(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return "", fmt.Errorf("values.yaml: %w", err)
	}
	for _, file := range valueFiles {
		extra, err := readYAMLMap(file)
		if err != nil {
			return "", fmt.Errorf("%s: %w", file, err)
		}
		values = mergeValues(values, extra)
	}
	for _, set := range sets {
		if err := applySet(values, set); err != nil {
			return "", fmt.Errorf("--set %s: %w", set, err)
		}
	}

	if valuesOut != "" {
		data, err := json.MarshalIndent(values, "", "  ")
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(valuesOut, data, 0o644); err != nil {
			return "", err
		}
	}

	versionParts := strings.SplitN(kubeVersion, ".", 3)
	if len(versionParts) < 2 {
		return "", fmt.Errorf("--kube-version %q is not major.minor[.patch]", kubeVersion)
	}
	top := map[string]interface{}{
		"Values": values,
		"Chart":  chartObject(chart),
		"Release": map[string]interface{}{
			"Name": releaseName, "Namespace": namespace, "Service": "Helm",
			"IsInstall": true, "IsUpgrade": false, "Revision": 1,
		},
		"Capabilities": map[string]interface{}{
			"KubeVersion": map[string]interface{}{
				"Version": "v" + kubeVersion, "GitVersion": "v" + kubeVersion,
				"Major": versionParts[0], "Minor": versionParts[1],
			},
			"APIVersions": apiVersions{"v1", "apps/v1", "autoscaling/v2", "policy/v1",
				"networking.k8s.io/v1", "monitoring.coreos.com/v1"},
		},
		"Files": map[string]interface{}{},
	}

	chartName, _ := chart["name"].(string)
	templatesDir := filepath.Join(chartDir, "templates")
	entries, err := os.ReadDir(templatesDir)
	if err != nil {
		return "", err
	}
	root := template.New("chart")
	root.Funcs(funcMap(root))
	var names []string
	for _, entry := range entries {
		if entry.IsDir() {
			continue
		}
		text, err := os.ReadFile(filepath.Join(templatesDir, entry.Name()))
		if err != nil {
			return "", err
		}
		name := chartName + "/templates/" + entry.Name()
		// Helm's engine: a missing key renders as empty, not "<no value>".
		if _, err := root.New(name).Option("missingkey=zero").Parse(string(text)); err != nil {
			return "", err
		}
		names = append(names, name)
	}
	sort.Strings(names)

	var out strings.Builder
	for _, name := range names {
		base := filepath.Base(name)
		isNotes := base == "NOTES.txt"
		if strings.HasPrefix(base, "_") || isNotes != notes {
			continue
		}
		top["Template"] = map[string]interface{}{"Name": name, "BasePath": chartName + "/templates"}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, top); err != nil {
			return "", err
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if notes {
			out.WriteString(text)
			continue
		}
		fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", name, strings.TrimLeft(text, "\n"))
	}
	return out.String(), nil
}

// funcMap is Sprig's text functions (less env access, as Helm) plus Helm's own.
func funcMap(root *template.Template) template.FuncMap {
	funcs := sprig.TxtFuncMap()
	delete(funcs, "env")
	delete(funcs, "expandenv")
	funcs["include"] = func(name string, data interface{}) (string, error) {
		var buf bytes.Buffer
		err := root.ExecuteTemplate(&buf, name, data)
		return buf.String(), err
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		if _, err := t.New("tpl").Option("missingkey=zero").Parse(text); err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, "tpl", data); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	funcs["required"] = func(message string, value interface{}) (interface{}, error) {
		if value == nil {
			return nil, errors.New(message)
		}
		if s, ok := value.(string); ok && s == "" {
			return nil, errors.New(message)
		}
		return value, nil
	}
	funcs["fail"] = func(message string) (string, error) { return "", errors.New(message) }
	funcs["toYaml"] = func(value interface{}) string {
		var buf bytes.Buffer
		encoder := yaml.NewEncoder(&buf)
		encoder.SetIndent(2)
		if err := encoder.Encode(value); err != nil {
			return ""
		}
		return strings.TrimSuffix(buf.String(), "\n")
	}
	funcs["fromYaml"] = func(text string) map[string]interface{} {
		out := map[string]interface{}{}
		if err := yaml.Unmarshal([]byte(text), &out); err != nil {
			out["Error"] = err.Error()
		}
		return out
	}
	funcs["toJson"] = func(value interface{}) string {
		data, err := json.Marshal(value)
		if err != nil {
			return ""
		}
		return string(data)
	}
	funcs["fromJson"] = func(text string) map[string]interface{} {
		out := map[string]interface{}{}
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			out["Error"] = err.Error()
		}
		return out
	}
	funcs["lookup"] = func(...interface{}) map[string]interface{} { return map[string]interface{}{} }
	return funcs
}

func readYAMLMap(path string) (map[string]interface{}, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// chartObject exposes Chart.yaml's keys as Helm does: name → .Chart.Name, appVersion → .Chart.AppVersion.
func chartObject(chart map[string]interface{}) map[string]interface{} {
	out := map[string]interface{}{}
	for key, value := range chart {
		switch key {
		case "apiVersion":
			out["APIVersion"] = value
		case "appVersion":
			out["AppVersion"] = value
		case "kubeVersion":
			out["KubeVersion"] = value
		default:
			out[strings.ToUpper(key[:1])+key[1:]] = value
		}
	}
	return out
}

// mergeValues deep-merges override into base: maps merge key by key, anything else replaces,
// and a null override deletes the key (Helm's coalescing rules for user values).
func mergeValues(base, override map[string]interface{}) map[string]interface{} {
	for key, value := range override {
		if value == nil {
			delete(base, key)
			continue
		}
		overrideMap, isMap := value.(map[string]interface{})
		baseMap, baseIsMap := base[key].(map[string]interface{})
		if isMap && baseIsMap {
			base[key] = mergeValues(baseMap, overrideMap)
		} else {
			base[key] = value
		}
	}
	return base
}

// applySet applies one --set argument: comma-separated dotted.key=value pairs; values typed
// as Helm's strvals types them (true/false, integers, null), everything else a string.
func applySet(values map[string]interface{}, arg string) error {
	for _, pair := range splitUnescaped(arg, ',') {
		key, raw, found := strings.Cut(pair, "=")
		if !found || key == "" {
			return fmt.Errorf("%q is not key=value", pair)
		}
		if strings.ContainsAny(key, "[]") {
			return fmt.Errorf("list indexes in %q are not supported; use -f", key)
		}
		path := strings.Split(key, ".")
		node := values
		for _, part := range path[:len(path)-1] {
			next, ok := node[part].(map[string]interface{})
			if !ok {
				next = map[string]interface{}{}
				node[part] = next
			}
			node = next
		}
		last := path[len(path)-1]
		value := typedValue(strings.ReplaceAll(raw, `\,`, ","))
		if value == nil {
			delete(node, last)
		} else {
			node[last] = value
		}
	}
	return nil
}

func typedValue(raw string) interface{} {
	switch raw {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil && (raw == "0" || !strings.HasPrefix(raw, "0")) {
		return n
	}
	return raw
}

func splitUnescaped(text string, sep byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' {
			i++
			continue
		}
		if text[i] == sep {
			parts = append(parts, text[start:i])
			start = i + 1
		}
	}
	return append(parts, text[start:])
}
