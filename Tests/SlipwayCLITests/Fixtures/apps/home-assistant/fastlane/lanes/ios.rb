# The iOS release: archive with the match profiles, then upload.
platform :ios do
  private_lane :create_archive do
    setup_ha_ci if is_ci
    increment_build_number(build_number: ENV['GITHUB_RUN_NUMBER'])
    ipa_path = build_ios_app(
      export_method: 'app-store',
      skip_package_dependencies_resolution: true,
      output_directory: './build/ios',
      export_options: { signingStyle: 'manual' }
    )
    ipa_path
  end

  lane :build do
    ipa_path = create_archive
    upload_binary_to_apple(type: 'ios', path: ipa_path)
  end
end
