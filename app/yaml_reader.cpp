#include "app/yaml_reader.h"

namespace cohsim {

YAML::Node load_yaml_file(const std::string& file, const std::string& what) {
    try {
        return YAML::LoadFile(file);
    } catch (const YAML::BadFile&) {
        throw cfg::config_error({file, 0, 0}, "", "cannot read the file", what);
    } catch (const YAML::Exception& e) {
        throw cfg::config_error({file, e.mark.line + 1, e.mark.column + 1}, "", "malformed YAML: " + e.msg);
    }
}

}  // namespace cohsim
